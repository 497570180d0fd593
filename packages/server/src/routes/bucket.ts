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
import { PREPARED } from '../db/index';

/** Active projects of these clients, each with its active request and upload counts, oldest first. */
export async function bucketsWithCounts(s: Services, clients: string[], only?: string): Promise<Bucket[]> {
  if (!clients.length) return [];
  let q = s.db.selectFrom('buckets as b').selectAll('b').where('b.client', 'in', clients).where('b.active', '=', 1);
  if (only) q = q.where('b.stamp', '=', only);
  const rows = await q.orderBy('b.created_at').orderBy('b.seq').execute();
  return rows.map((r) => bucketView(r, { runs: r.run_count, rends: r.rend_count }));
}

interface ListRow {
  stamp: string;
  name: string;
  plan: string;
  choice: string;
  active: number;
  member: boolean;
  /** The projects as JSON objects joined by commas, written by the database (compact, in list order). */
  buckets: string;
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

/** 404 for an unknown client, 403 when the user is not (or no longer) its member (or a key of another client). */
async function requireMember(s: Services, user: string, client: string): Promise<void> {
  const { rows } = await sql<{ known: boolean; member: boolean }>`${PREPARED('bucket_member')}
    select exists(select 1 from clients where stamp = ${client}) as known,
      exists(select 1 from permissions where client_stamp = ${client} and user_stamp = ${user}) as member`.execute(s.db);
  if (!rows[0]?.known) throw notFound('Client');
  if (!rows[0].member) throw forbidden();
}

export function bucketRoutes(app: FastifyInstance, s: Services) {
  // The hottest read (every page of a project opens with it): one query over one index answers membership and
  // the list (counts are kept on the project rows), optionally behind a short-lived cache (LIST_CACHE_MS).
  defineCall(app, s, 'bucketList', { keys: true }, async ({ caller, query, reply }) => {
    const listed = checkActiveFilter(query.active);
    const cached = s.config.listCacheMs > 0;
    // Membership never comes from the cache (admin revoke holds at once on every process): with the cache on,
    // a user's membership is read first, and the cached answer is the client's list, shared by its members.
    if (cached && (caller.kind === 'user' || caller.client !== query.client)) await requireMember(s, caller.kind === 'user' ? caller.stamp : '', query.client);
    // The `|client|` form is what ListCache.invalidate matches loads in flight by.
    const cacheKey = `list|${query.client}|${listed ? 1 : 0}`;
    const body = await s.listCache.get(cacheKey, query.client, async () => {
      // One row whose text is the list's JSON already: returning 100 rows costs more to decode than this to send,
      // and to_json quotes names exactly as JSON.stringify would.
      const { rows } = await sql<ListRow>`${PREPARED('bucket_list')}
        select c.stamp, c.name, c.plan, c.choice, c.active,
          exists(select 1 from permissions p where p.client_stamp = ${query.client} and p.user_stamp = ${caller.kind === 'user' ? caller.stamp : ''}) as member,
          (select coalesce(string_agg('{"stamp":' || to_json(b.stamp)::text || ',"name":' || to_json(b.name)::text
              || ',"runs":' || b.run_count || ',"rends":' || b.rend_count || ',"createdAt":' || b.created_at || '}',
              ',' order by b.created_at, b.seq), '')
            from buckets b where b.client = c.stamp and b.active = 1 and ${listed}) as buckets
        from clients c where c.stamp = ${query.client}`.execute(s.db);
      const c = rows[0];
      if (!c) throw notFound('Client');
      // Uncached, this one query answers membership too; cached, it was read above.
      if (!cached && (caller.kind === 'user' ? !c.member : caller.client !== c.stamp)) throw forbidden();
      const client = JSON.stringify(clientView({ ...c, credit_total: 0, credit_used: 0, created_at: 0 }));
      return { client: c.stamp, body: `{"client":{"list":[${client}]},"bucket":{"list":[${c.buckets}]}}` };
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
