// Names of the uploads that runs, models and quotes point at (the wire's `rend: { stamp, name }`).
import type { Kysely } from 'kysely';
import type { RendRef } from '@portal/core';
import type { DB } from './db/schema';

export async function rendRefs(db: Kysely<DB>, stamps: Array<string | null>): Promise<(stamp: string | null) => RendRef | null> {
  const ids = [...new Set(stamps.filter((x): x is string => !!x))];
  const rows = ids.length ? await db.selectFrom('rends').select(['stamp', 'name']).where('stamp', 'in', ids).execute() : [];
  const map = new Map(rows.map((r) => [r.stamp, r]));
  return (stamp) => (stamp ? (map.get(stamp) ?? null) : null);
}
