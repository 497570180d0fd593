// Names of the uploads that runs, models and quotes point at (the wire's `rend: { stamp, name }`).
import type { Kysely } from 'kysely';
import type { RendRef } from '@portal/core';
import type { DB } from './db/schema';
import type { Caller } from './services';
import { inListOrder, newestFirst, pageRows, type Page, type Params } from './paging';
import { SEEN, projectPage, type Column } from './projectPage';

export async function rendRefs(db: Kysely<DB>, stamps: Array<string | null>): Promise<(stamp: string | null) => RendRef | null> {
  const ids = [...new Set(stamps.filter((x): x is string => !!x))];
  const rows = ids.length ? await db.selectFrom('rends').select(['stamp', 'name']).where('stamp', 'in', ids).execute() : [];
  const map = new Map(rows.map((r) => [r.stamp, r]));
  return (stamp) => (stamp ? (map.get(stamp) ?? null) : null);
}

/** A list of a project's requests or models: the table, the columns it reads and the columns' types. */
export interface NamedList {
  table: 'runs' | 'models';
  reads: readonly string[];
  columns: Column[];
}

/**
 * A project's requests or models (a page of them, or all), each with the name of the upload it points at, and the
 * project and its client, in one statement. `where` adds the call's own conditions on the rows (alias n).
 */
export async function namedPage<R extends { created_at: number; seq: number }>(
  db: Kysely<DB>,
  caller: Caller,
  project: string,
  listed: boolean,
  page: Page | null,
  { table, reads, columns }: NamedList,
  where: (params: Params) => string = () => '',
) {
  const newest = newestFirst(table, page);
  const fills = [...reads, 'seq', 'rend_name'];
  const read = [...reads, 'seq'].map((c) => `n."${c}"`).join(', ');
  const found = await projectPage<R & { rend: string | null; rend_name: string | null }>(db, caller, project, listed, (params) => ({
    name: `${table}_list`,
    with: '',
    columns: [...columns, ['rend_name', 'text']],
    parts: [
      {
        k: 1,
        as: 'n',
        from: `(${params.page(
          'n',
          `select ${read}, r.name as rend_name from ${table} n left join rends r on r.stamp = n.rend
  where ${SEEN} and n.bucket = $1 and n.active = 1${where(params)}`,
          page,
          newest,
        )}) n`,
        fills,
      },
    ],
  }));
  const { rows, next } = pageRows(inListOrder(found.rows, newest), page);
  return { client: found.client, bucket: found.bucket, rows, next };
}

/** The wire's `rend` of a row read with its upload's name (`namedPage`). */
export const rendRefOf = (row: { rend: string | null; rend_name: string | null }): RendRef | null =>
  row.rend && row.rend_name !== null ? { stamp: row.rend, name: row.rend_name } : null;
