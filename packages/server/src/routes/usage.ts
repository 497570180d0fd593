// A client's usage over its last N days (UTC): requests made, input parameters processed and amounts quoted, per day.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import type { UsageDay } from '@portal/core';
import type { UsageProject } from '@portal/core/contract/table';
import { defineCall, type CallServices } from './define';
import { requireClient } from '../access';
import { quoteView } from '../views';
import { uploadRefs } from '../refs';

/** What the group uses: a call's own services. */
export type UsageServices = CallServices;

const DAY_S = 86_400;
/** The usage page lists at most this many quotes of the period (newest first). */
export const USAGE_QUOTES_MAX = 200;

const isoDay = (day: number) => new Date(day * DAY_S * 1000).toISOString().slice(0, 10);

export const usageRoutes: FastifyPluginAsyncZod<UsageServices> = async (app, s) => {
  defineCall(app, s, 'clientUsage', {}, async ({ caller, query }) => {
    const client = await requireClient(s.db, caller, query.client);
    const today = Math.floor(Date.now() / 1000 / DAY_S);
    const first = today - query.days + 1;
    // Every request made counts, removed since or not: it was processed and its credit spent. Shrinks count as
    // their quotes (made, with the amount quoted), whether paid yet or not.
    const runs = await s.db
      .selectFrom('runs')
      .innerJoin('buckets', 'buckets.stamp', 'runs.bucket')
      .select([
        sql<number>`floor(runs.created_at / ${DAY_S})::bigint`.as('day'),
        'runs.function',
        'runs.bucket',
        'buckets.name',
        sql<number>`count(*)::bigint`.as('n'),
        sql<number>`coalesce(sum(runs.inputs), 0)::bigint`.as('inputs'),
      ])
      .where('buckets.client', '=', client.stamp)
      .where('runs.created_at', '>=', first * DAY_S)
      .where('runs.function', 'in', ['fit', 'generate'])
      .groupBy(['day', 'runs.function', 'runs.bucket', 'buckets.name'])
      .execute();
    const quotes = await s.db
      .selectFrom('quotes')
      .innerJoin('buckets', 'buckets.stamp', 'quotes.bucket')
      .select([
        sql<number>`floor(quotes.created_at / ${DAY_S})::bigint`.as('day'),
        'quotes.bucket',
        'buckets.name',
        sql<number>`count(*)::bigint`.as('n'),
        sql<number>`coalesce(sum(quotes.inputs), 0)::bigint`.as('inputs'),
        sql<number>`coalesce(sum(quotes.cent), 0)::bigint`.as('cents'),
      ])
      .where('buckets.client', '=', client.stamp)
      .where('quotes.created_at', '>=', first * DAY_S)
      .groupBy(['day', 'quotes.bucket', 'buckets.name'])
      .execute();
    const days: UsageDay[] = Array.from({ length: query.days }, (_, i) => ({
      date: isoDay(first + i),
      fits: 0,
      generates: 0,
      shrinks: 0,
      parameters: 0,
      cents: 0,
    }));
    // The days count the chosen project only (all when none is chosen); the split by project always counts all.
    const byProject = new Map<string, UsageProject>();
    const projectOf = (project: string, name: string) => {
      let p = byProject.get(project);
      if (!p) byProject.set(project, (p = { bucket: project, name, fits: 0, generates: 0, shrinks: 0, parameters: 0, cents: 0 }));
      return p;
    };
    const at = (day: number, project: string) => (query.bucket && project !== query.bucket ? undefined : days[Number(day) - first]);
    for (const r of runs) {
      const n = Number(r.n);
      const p = projectOf(r.bucket, r.name);
      if (r.function === 'fit') p.fits += n;
      else p.generates += n;
      p.parameters += Number(r.inputs);
      const d = at(r.day, r.bucket);
      if (!d) continue;
      if (r.function === 'fit') d.fits += n;
      else d.generates += n;
      d.parameters += Number(r.inputs);
    }
    for (const q of quotes) {
      const p = projectOf(q.bucket, q.name);
      p.shrinks += Number(q.n);
      p.parameters += Number(q.inputs);
      p.cents += Number(q.cents);
      const d = at(q.day, q.bucket);
      if (!d) continue;
      d.shrinks += Number(q.n);
      d.parameters += Number(q.inputs);
      d.cents += Number(q.cents);
    }
    const projects = [...byProject.values()].sort(
      (a, b) => b.cents - a.cents || b.parameters - a.parameters || a.name.localeCompare(b.name),
    );
    const totals = { fits: 0, generates: 0, shrinks: 0, parameters: 0, cents: 0 };
    for (const d of days) for (const k of Object.keys(totals) as Array<keyof typeof totals>) totals[k] += d[k];
    // The quotes a user can still open: those of live projects, newest first.
    const list = await s.db
      .selectFrom('quotes')
      .innerJoin('buckets', 'buckets.stamp', 'quotes.bucket')
      .selectAll('quotes')
      .where('buckets.client', '=', client.stamp)
      .where('buckets.active', '=', 1)
      .where('quotes.active', '=', 1)
      .where('quotes.created_at', '>=', first * DAY_S)
      .$if(!!query.bucket, (w) => w.where('quotes.bucket', '=', query.bucket!))
      .orderBy('quotes.created_at', 'desc')
      .orderBy('quotes.seq', 'desc')
      .limit(USAGE_QUOTES_MAX)
      .execute();
    const ref = await uploadRefs(
      s.db,
      list.map((q) => q.rend),
    );
    return {
      usage: { days, totals, projects },
      quote: { list: list.map((q) => ({ ...quoteView(q, ref(q.rend)), bucket: q.bucket })) },
    };
  });
};
