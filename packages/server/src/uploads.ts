// Upload groups (rends) and items: how they are read with their items, boxes and counts, and how a group's flight moves.
import type { Kysely, Selectable } from 'kysely';
import type { Rend } from '@portal/core';
import type { DB, RendTable } from './db/schema';
import { rendView } from './views';

export const uploadKey = (stamp: string) => `uploads/${stamp}`;
export const NOT_UPLOADED = 'The file was not uploaded before the upload was finished.';

/** Rows grouped by their upload, each group in the order given. */
function byRend<R extends { rend: string }>(rows: R[]): Map<string, R[]> {
  const groups = new Map<string, R[]>();
  for (const r of rows) {
    const g = groups.get(r.rend);
    if (g) g.push(r);
    else groups.set(r.rend, [r]);
  }
  return groups;
}

export async function rendsFull(db: Kysely<DB>, rends: Selectable<RendTable>[]): Promise<Rend[]> {
  if (!rends.length) return [];
  const ids = rends.map((r) => r.stamp);
  const [items, boxes, counts] = await Promise.all([
    db.selectFrom('uploads').selectAll().where('rend', 'in', ids).orderBy('created_at').orderBy('seq').execute(),
    db.selectFrom('boxes').selectAll().where('rend', 'in', ids).orderBy('created_at').orderBy('seq').execute(),
    db
      .selectFrom('runs')
      .select(['rend', (eb) => eb.fn.countAll<number>().as('n')])
      .where('rend', 'in', ids)
      .where('active', '=', 1)
      .groupBy('rend')
      .execute(),
  ]);
  // Grouped once: a project's 10,000 uploads are not each matched against every item.
  const itemsOf = byRend(items);
  const boxesOf = byRend(boxes);
  const runsOf = new Map(counts.map((c) => [c.rend, Number(c.n)]));
  return rends.map((r) => rendView(r, itemsOf.get(r.stamp) ?? [], boxesOf.get(r.stamp) ?? [], runsOf.get(r.stamp) ?? 0));
}

export async function rendFull(db: Kysely<DB>, stamp: string): Promise<Rend> {
  const rend = await db.selectFrom('rends').selectAll().where('stamp', '=', stamp).executeTakeFirstOrThrow();
  const [full] = await rendsFull(db, [rend]);
  return full;
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
