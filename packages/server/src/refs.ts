// Names of the uploads that runs, models and quotes point at (the wire's `rend: { stamp, name }`).
import { sql, type Kysely, type QueryCreator } from 'kysely';
import type { UploadRef } from '@portal/core';
import type { DB } from './db/schema';
import type { Caller } from './services';
import { columnOf, columnsOf, fillsFrom, unionPart } from './db/union';
import { inListOrder, newestFirst, pageOfRows, pageRows, pageShape, type Page } from './paging';
import { ACCESS_COLUMNS, accessPart, listValues, projectPage, seen, withProjectAccess } from './projectPage';
import { MODEL_SHOWN, RUN_SHOWN } from './views';

export async function uploadRefs(db: Kysely<DB>, stamps: Array<string | null>): Promise<(stamp: string | null) => UploadRef | null> {
  const ids = [...new Set(stamps.filter((x): x is string => !!x))];
  const rows = ids.length ? await db.selectFrom('rends').select(['stamp', 'name']).where('stamp', 'in', ids).execute() : [];
  const map = new Map(rows.map((r) => [r.stamp, r]));
  return (stamp) => (stamp ? (map.get(stamp) ?? null) : null);
}

/** The columns each of the named lists reads (their view's), from its own table. */
const NAMED_READS = { runs: [...RUN_SHOWN, 'seq'], models: [...MODEL_SHOWN, 'seq'] } as const;

/** A list's columns: the access row's, its table's reads and the name of the upload each row points at. */
const NAMED_COLUMNS = {
  runs: { ...ACCESS_COLUMNS, ...columnsOf('runs', NAMED_READS.runs), rend_name: columnOf('rends', 'name') },
  models: { ...ACCESS_COLUMNS, ...columnsOf('models', NAMED_READS.models), rend_name: columnOf('rends', 'name') },
};

/** A named list's own conditions on its rows (the request list's state and function), each when given. */
export interface NamedFilters {
  state?: string;
  function?: string;
}

/**
 * A project's requests or models (a page of them, or all), each with the name of the upload it points at, and the
 * project and its client, in one statement.
 */
export async function namedPage<R extends { created_at: number; seq: number }>(
  db: Kysely<DB>,
  caller: Caller,
  project: string,
  listed: boolean,
  page: Page | null,
  table: keyof typeof NAMED_READS,
  filters: NamedFilters = {},
) {
  const newest = newestFirst(table, page);
  const columns = NAMED_COLUMNS[table];
  const given = (Object.keys(filters) as Array<keyof NamedFilters>).filter((f) => filters[f] !== undefined).sort();
  const values = { ...listValues(project, caller, listed, page), ...filters };
  const shape = `${pageShape(page, newest)} ${given.join(' ')}`;
  const found = await projectPage(db, caller, values, `${table}_list`, shape, (db, p) => {
    const q = withProjectAccess(db, p);
    // One table of the two: its columns are named by NAMED_READS, checked against the schema by columnOf.
    // The parts after the first read `sc` too, but the `with` is the statement's, written once before the first.
    const named = db as unknown as QueryCreator<DB & { n: DB['runs'] } & (typeof q extends QueryCreator<infer D> ? D : never)>;
    let rows = named
      .selectFrom(`${table} as n` as 'runs as n')
      .leftJoin('rends as r', 'r.stamp', 'n.rend')
      .select([...NAMED_READS[table].map((c) => sql.ref<unknown>(`n.${c}`).as(c)), 'r.name as rend_name'])
      .where(seen(p))
      .where('n.bucket', '=', p.parent)
      .where('n.active', '=', sql.lit(1));
    for (const f of given) rows = rows.where(sql.ref(`n.${f}`), '=', (p as NamedFilters)[f]!);
    const part = unionPart(named.selectFrom(pageOfRows(named, rows, 'n', page, newest, p).as('n')), columns, 1, () => ({
      ...fillsFrom(columns, table, 'n'),
      rend_name: sql.ref<string | null>('n.rend_name'),
    }));
    return accessPart(q.selectFrom('sc'), columns, true).unionAll(part as never);
  });
  const { rows, next } = pageRows(inListOrder(found.rows as unknown as R[], newest), page);
  return { client: found.client, project: found.project, rows: rows as Array<R & { rend: string | null; rend_name: string | null }>, next };
}

/** The wire's `rend` of a row read with its upload's name (`namedPage`). */
export const uploadRefOf = (row: { rend: string | null; rend_name: string | null }): UploadRef | null =>
  row.rend && row.rend_name !== null ? { stamp: row.rend, name: row.rend_name } : null;
