// Projects (buckets): list with request and upload counts, create, rename, soft delete.
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Bucket } from '@portal/core';
import { defineCall } from './define';
import { requireBucket, requireClient } from '../access';
import { forbidden, notFound } from '../errors';
import { bucketView, clientView } from '../views';
import { newId, now } from '../ids';
import { badRequest } from '../errors';
import type { Services } from '../services';

/** Active projects of these clients, each with its active request and upload counts, oldest first. */
export async function bucketsWithCounts(s: Services, clients: string[], only?: string): Promise<Bucket[]> {
  if (!clients.length) return [];
  let q = s.db
    .selectFrom('buckets as b')
    .selectAll('b')
    .select([
      sql<number>`(select count(*)::int from runs r where r.bucket = b.stamp and r.active = 1)`.as('run_count'),
      sql<number>`(select count(*)::int from rends d where d.bucket = b.stamp and d.active = 1)`.as('rend_count'),
    ])
    .where('b.client', 'in', clients)
    .where('b.active', '=', 1);
  if (only) q = q.where('b.stamp', '=', only);
  const rows = await q.orderBy('b.created_at').orderBy('b.stamp').execute();
  return rows.map((r) => bucketView(r, { runs: r.run_count, rends: r.rend_count }));
}

export async function bucketWithCounts(s: Services, client: string, stamp: string): Promise<Bucket> {
  const [b] = await bucketsWithCounts(s, [client], stamp);
  return b;
}

/** `active` in list queries: only 1 (the default) lists anything; soft-deleted items are never listed. */
export function checkActiveFilter(active: number | undefined) {
  if (active !== undefined && active !== 0 && active !== 1) throw badRequest('active: must be 0 or 1');
  return active !== 0;
}

export function bucketRoutes(app: FastifyInstance, s: Services) {
  // The hottest read (every page of a project opens with it): one query that answers membership and builds the
  // list's JSON inside the database, plus a short-lived cache.
  defineCall(app, s, 'bucketList', { keys: true }, async ({ caller, query, reply }) => {
    const listed = checkActiveFilter(query.active);
    const who = caller.kind === 'user' ? caller.stamp : caller.clue;
    const cacheKey = `${caller.kind}:${who}|${query.client}|${listed ? 1 : 0}`;
    const body = await s.listCache.get(cacheKey, query.client, async () => {
      const row = await sql<{ stamp: string; name: string; plan: string; choice: string; active: number; member: boolean; buckets: string }>`
        select c.stamp, c.name, c.plan, c.choice, c.active,
          exists(select 1 from permissions p where p.client_stamp = c.stamp and p.user_stamp = ${caller.kind === 'user' ? caller.stamp : ''}) as member,
          (select coalesce(json_agg(json_build_object(
              'stamp', b.stamp, 'name', b.name,
              'runs', (select count(*) from runs r where r.bucket = b.stamp and r.active = 1),
              'rends', (select count(*) from rends d where d.bucket = b.stamp and d.active = 1),
              'createdAt', b.created_at) order by b.created_at, b.stamp), '[]'::json)::text
            from buckets b where b.client = c.stamp and b.active = 1 and ${listed}) as buckets
        from clients c where c.stamp = ${query.client}`.execute(s.db);
      const c = row.rows[0];
      if (!c) throw notFound('Client');
      if (caller.kind === 'user' ? !c.member : caller.client !== c.stamp) throw forbidden();
      const client = JSON.stringify(clientView({ ...c, credit_total: 0, credit_used: 0, created_at: 0 }));
      // PostgreSQL spaces its JSON out (" : "); compacting it once per load saves a fifth of every answer.
      const buckets = JSON.stringify(JSON.parse(c.buckets));
      return { client: c.stamp, body: `{"client":{"list":[${client}]},"bucket":{"list":${buckets}}}` };
    });
    return reply.type('application/json; charset=utf-8').send(body) as never;
  });

  defineCall(app, s, 'bucketCreate', {}, async ({ caller, body }) => {
    const client = await requireClient(s.db, caller, body.client);
    const stamp = newId('b_');
    await s.db.insertInto('buckets').values({ stamp, client: client.stamp, name: body.name, active: 1, created_at: now() }).execute();
    s.listCache.invalidate(client.stamp);
    return { bucket: await bucketWithCounts(s, client.stamp, stamp) };
  });

  defineCall(app, s, 'bucketRename', {}, async ({ caller, body }) => {
    const { bucket } = await requireBucket(s.db, caller, body.bucket);
    await s.db.updateTable('buckets').set({ name: body.name }).where('stamp', '=', bucket.stamp).execute();
    s.listCache.invalidate(bucket.client);
    return { bucket: await bucketWithCounts(s, bucket.client, bucket.stamp) };
  });

  defineCall(app, s, 'bucketRemove', {}, async ({ caller, body }) => {
    const { bucket } = await requireBucket(s.db, caller, body.bucket);
    await s.db.updateTable('buckets').set({ active: body.active }).where('stamp', '=', bucket.stamp).execute();
    s.listCache.invalidate(bucket.client);
    return { ok: true as const };
  });
}
