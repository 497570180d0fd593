// Projects (buckets): list with request and upload counts, create, rename, soft delete (each change in the audit log).
import type { FastifyInstance } from 'fastify';
import type { Bucket } from '@portal/core';
import { defineCall } from './define';
import { defineRenameRemove } from './renameRemove';
import { actorOf, audit } from '../audit';
import { requireBucket, requireClient, sessionRead } from '../access';
import { accessParams } from '../projectPage';
import { inListOrder, listOut, newestFirst, pageOf, pageRows, type Page, type Params } from '../paging';
import { bucketView, clientView } from '../views';
import { newId, now } from '../ids';
import { preparedMark, runStatement } from '../db/statements';
import { badRequest, forbidden, notFound } from '../errors';
import type { Services } from '../services';

interface BucketListRow {
  k: number;
  live: boolean | null;
  c_stamp: string | null;
  c_name: string;
  c_plan: string;
  c_choice: string;
  c_active: number;
  allowed: boolean | null;
  stamp: string;
  name: string;
  run_count: number;
  rend_count: number;
  created_at: number;
  seq: number;
}

/**
 * The project list's one statement, for one page (`params` holds $1 to $6 and takes the page's own): first a row with
 * the session ($3; null when already read), the client ($1) and whether the caller may see it (a member $2, or the
 * client's own API key $5), then the client's active projects in the page's order. The client's columns come once,
 * not on every project row: a value costs the embedded database about a microsecond to write out, and the HTTP
 * thread one string to read. A session that ended yields no client, a client the caller may not see yields no
 * projects (a condition checked once, before the walk). Each shape of page (its order, a search, a cursor) is its
 * own text, so every plan is a plain index walk in one direction, prepared once per connection.
 */
function bucketListText(params: Params, page: Page | null): string {
  const newest = newestFirst('buckets', page);
  const rows = params.page(
    'b',
    'select b.stamp, b.name, b.run_count, b.rend_count, b.created_at, b.seq from buckets b\n' +
      '  where (select sc.allowed from sc) and $6::boolean and b.client = $1 and b.active = 1',
    page,
    newest,
  );
  return `${preparedMark('bucket_list')}
with sc as (
  select s.live, c.stamp, c.name, c.plan, c.choice, c.active, c.allowed
  from (select $3::text is null or exists (
      select 1 from sessions where id = $3 and user_stamp = $2 and ended_at is null and expires_at >= $4
    ) as live) s
  left join lateral (
    select c.*, coalesce(c.stamp = $5::text, false)
      or exists (select 1 from permissions p where p.client_stamp = c.stamp and p.user_stamp = $2) as allowed
    from clients c where c.stamp = $1 and s.live
  ) c on true
)
select 0 as k, live, stamp as c_stamp, name as c_name, plan as c_plan, choice as c_choice, active as c_active, allowed,
  null::text as stamp, null::text as name, null::bigint as run_count, null::bigint as rend_count,
  null::bigint as created_at, null::bigint as seq
from sc
union all
select 1, null, null, null, null, null, null, null, b.stamp, b.name, b.run_count, b.rend_count, b.created_at, b.seq
from (${rows}) b`;
}

/** A project row as the wire shows it, with the request and upload counts kept on the row. */
export const bucketOut = (b: Parameters<typeof bucketView>[0] & { run_count: number; rend_count: number }): Bucket =>
  bucketView(b, { runs: b.run_count, rends: b.rend_count });

/** Active projects of these clients, each with its active request and upload counts, oldest first. */
export async function bucketsWithCounts(s: Services, clients: string[], only?: string): Promise<Bucket[]> {
  if (!clients.length) return [];
  let q = s.db.selectFrom('buckets as b').selectAll('b').where('b.client', 'in', clients).where('b.active', '=', 1);
  if (only) q = q.where('b.stamp', '=', only);
  const rows = await q.orderBy('b.created_at').orderBy('b.seq').execute();
  return rows.map(bucketOut);
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

export function projectRoutes(app: FastifyInstance, s: Services) {
  // Every page of a project opens with it: the session, membership, the client and a page of its projects (their
  // request and upload counts are kept on the project rows) in one statement, one trip to the database.
  defineCall(app, s, 'bucketList', { keys: true, sessionInQuery: true }, async ({ caller, query }) => {
    const listed = checkActiveFilter(query.active);
    const page = pageOf(query, 'buckets');
    const params = accessParams(query.client, caller, listed);
    const text = bucketListText(params, page);
    const found = await runStatement<BucketListRow>(s.db, text, params.values);
    const first = found.splice(
      found.findIndex((r) => r.k === 0),
      1,
    )[0];
    sessionRead(caller, !!first.live);
    if (first.c_stamp === null) throw notFound('Client');
    if (!first.allowed) throw forbidden();
    const client = { stamp: first.c_stamp, name: first.c_name, plan: first.c_plan, choice: first.c_choice, active: first.c_active };
    const { rows: list, next } = pageRows(inListOrder(found, newestFirst('buckets', page)), page);
    return {
      client: { list: [clientView(client)] },
      bucket: listOut(list.map(bucketOut), next),
    };
  });

  defineCall(app, s, 'bucketCreate', { keys: true }, async ({ caller, body }) => {
    const client = await requireClient(s.db, caller, body.client);
    const stamp = newId('b_');
    await s.db.transaction().execute(async (trx) => {
      await trx.insertInto('buckets').values({ stamp, client: client.stamp, name: body.name, active: 1, created_at: now() }).execute();
      await audit(trx, { client: client.stamp, actor: actorOf(caller), action: 'project.create', target: stamp, detail: body.name });
    });
    return { bucket: await bucketWithCounts(s, client.stamp, stamp) };
  });

  defineRenameRemove(app, s, 'project', {
    find: (caller, stamp, lookup) => requireBucket(s.db, caller, stamp, lookup),
    row: 'bucket',
    renameOptions: { keys: true },
    renamed: async (bucket) => ({ bucket: await bucketWithCounts(s, bucket.client, bucket.stamp) }),
  });
}
