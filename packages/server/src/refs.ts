// Names of the uploads that runs, models and quotes point at (the wire's `rend: { stamp, name }`).
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { RendRef } from '@portal/core';
import type { DB } from './db/schema';

export async function rendRefs(db: Kysely<DB>, stamps: Array<string | null>): Promise<(stamp: string | null) => RendRef | null> {
  const ids = [...new Set(stamps.filter((x): x is string => !!x))];
  const rows = ids.length ? await db.selectFrom('rends').select(['stamp', 'name']).where('stamp', 'in', ids).execute() : [];
  const map = new Map(rows.map((r) => [r.stamp, r]));
  return (stamp) => (stamp ? (map.get(stamp) ?? null) : null);
}

/** A list query's rows (`table`: runs or models) with the name of the upload each points at, in the same statement. */
export function withRendName<T extends 'runs' | 'models', O>(q: SelectQueryBuilder<DB, T, O>, table: T) {
  return q.select(sql<string | null>`(select r.name from rends r where r.stamp = ${sql.ref(`${table}.rend`)})`.as('rend_name'));
}

/** The wire's `rend` of a row read with `withRendName`. */
export const rendRefOf = (row: { rend: string | null; rend_name: string | null }): RendRef | null =>
  row.rend && row.rend_name !== null ? { stamp: row.rend, name: row.rend_name } : null;
