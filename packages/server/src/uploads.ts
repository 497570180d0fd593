// Upload groups (rends) and items: how they are read with their items, boxes and counts, and how a group's flight moves.
import { sql, type Kysely, type Selectable, type SelectQueryBuilder } from 'kysely';
import type { Rend } from '@portal/core';
import type { BoxTable, DB, RendTable, UploadTable } from './db/schema';
import { rendView } from './views';

export const uploadKey = (stamp: string) => `uploads/${stamp}`;
export const NOT_UPLOADED = 'The file was not uploaded before the upload was finished.';

type RendParts = { items: Selectable<UploadTable>[]; boxes: Selectable<BoxTable>[] };

/**
 * Upload rows with their files and results, read in the same statement (one trip for an upload, however many files
 * it holds). `q` selects from `rends`.
 */
function withParts<T extends Selectable<RendTable>>(q: SelectQueryBuilder<DB, 'rends', T>) {
  return q.select([
    sql<
      Selectable<UploadTable>[]
    >`(select coalesce(json_agg(u order by u.created_at, u.seq), '[]'::json) from uploads u where u.rend = rends.stamp)`.as('items'),
    sql<
      Selectable<BoxTable>[]
    >`(select coalesce(json_agg(x order by x.created_at, x.seq), '[]'::json) from boxes x where x.rend = rends.stamp)`.as('boxes'),
  ]);
}

/** An upload read with `withParts`, as the wire shows it (its active request count is kept on its row). */
const rendOut = (r: Selectable<RendTable> & RendParts): Rend => rendView(r, r.items, r.boxes, r.run_count);

export async function rendFull(db: Kysely<DB>, stamp: string): Promise<Rend> {
  return rendOut(await withParts(db.selectFrom('rends').selectAll().where('stamp', '=', stamp)).executeTakeFirstOrThrow());
}

/**
 * A finished group (flight Processing) becomes Ready once every item is Finished, or Failed once every item
 * is done and one of them Failed; items still Pending or Preparing keep it Processing.
 */
export async function settleFlight(db: Kysely<DB>, rendStamp: string): Promise<void> {
  const rend = await db.selectFrom('rends').select(['flight']).where('stamp', '=', rendStamp).executeTakeFirst();
  if (!rend || rend.flight !== 'Processing') return;
  const items = await db.selectFrom('uploads').select(['state']).where('rend', '=', rendStamp).execute();
  if (items.some((i) => i.state === 'Pending' || i.state === 'Preparing')) return;
  const flight = items.length > 0 && items.every((i) => i.state === 'Finished') ? 'Ready' : 'Failed';
  await db.updateTable('rends').set({ flight }).where('stamp', '=', rendStamp).where('flight', '=', 'Processing').execute();
}
