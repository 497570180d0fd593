// Projects (buckets): list with request and upload counts, create, rename, soft delete (each change in the audit log).
import type { FastifyInstance } from 'fastify';
import type { Bucket } from '@portal/core';
import { defineCall } from './define';
import { defineRenameRemove } from './renameRemove';
import { actorOf, audit } from '../audit';
import { requireBucket, requireClient } from '../access';
import { bucketView, clientView } from '../views';
import { newId, now } from '../ids';
import { badRequest } from '../errors';
import type { Services } from '../services';

/** Active projects of these clients, each with its active request and upload counts, oldest first. */
export async function bucketsWithCounts(s: Services, clients: string[], only?: string): Promise<Bucket[]> {
  if (!clients.length) return [];
  let q = s.db.selectFrom('buckets as b').selectAll('b').where('b.client', 'in', clients).where('b.active', '=', 1);
  if (only) q = q.where('b.stamp', '=', only);
  const rows = await q.orderBy('b.created_at').orderBy('b.seq').execute();
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

export function projectRoutes(app: FastifyInstance, s: Services) {
  // Every page of a project opens with it: membership, the client and its projects (their request and upload
  // counts are kept on the project rows, so the list is one indexed read).
  defineCall(app, s, 'bucketList', { keys: true }, async ({ caller, query }) => {
    const listed = checkActiveFilter(query.active);
    const client = await requireClient(s.db, caller, query.client);
    const bucket = listed ? await bucketsWithCounts(s, [client.stamp]) : [];
    return { client: { list: [clientView(client)] }, bucket: { list: bucket } };
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
