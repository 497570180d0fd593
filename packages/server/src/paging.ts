// The active rows of a parent (a client's projects and keys, a project's uploads, requests and models) in the list's
// order, a page at a time: keyset paging on (created_at, seq), so page 200 costs what page 1 does.
import { sql, type Kysely, type QueryCreator, type RawBuilder, type Selectable, type SelectQueryBuilder } from 'kysely';
import { LIST_PAGE_MAX, type ListOrder } from '@portal/core';
import type { DB } from './db/schema';
import { badRequest } from './errors';

/** The lists of "active rows of a parent", each with its parent column and its order (docs/DECISIONS.md, List order). */
const LISTS = {
  buckets: { parent: 'client', newest: false },
  apikeys: { parent: 'client', newest: false },
  integrations: { parent: 'client', newest: false },
  rends: { parent: 'bucket', newest: true },
  runs: { parent: 'bucket', newest: true },
  models: { parent: 'bucket', newest: true },
} as const;
export type Listed = keyof typeof LISTS;

/** A page asked for: `limit` rows after the row the cursor names, newest first or oldest first. */
export interface Page {
  limit: number;
  after: { at: number; seq: number } | null;
  newest: boolean;
  /** The list's own order (the cursors of its pages carry no order mark). */
  own: boolean;
  /** Names containing this, in any case (empty: every row). */
  q: string;
}

/**
 * The page a list call asked for, or null for the whole list (SPEC's answer). The contract has checked each field;
 * `order` and `q` need a page, and a cursor must come from a page in the order asked (its mark, `.n` or `.o`, says
 * which when it is not the list's own).
 */
export function pageOf(query: { limit?: number; cursor?: string; order?: ListOrder; q?: string }, table: Listed): Page | null {
  if (query.limit === undefined && query.cursor === undefined) {
    if (query.order !== undefined || query.q !== undefined) throw badRequest('order and q need a page: limit or cursor');
    return null;
  }
  const own = LISTS[table].newest;
  const newest = query.order === undefined ? own : query.order === 'newest';
  const [at, seq, mark] = (query.cursor ?? '').split('.');
  if (query.cursor && (mark === undefined ? own : mark === 'n') !== newest) {
    throw badRequest(`cursor must be the next value of an earlier page of this list in the order ${newest ? 'newest' : 'oldest'}`);
  }
  return {
    limit: query.limit ?? DEFAULT_PAGE,
    after: query.cursor ? { at: Number(at), seq: Number(seq) } : null,
    newest,
    own: newest === own,
    q: query.q ?? '',
  };
}

/** Rows of a page when a cursor comes without a limit. */
export const DEFAULT_PAGE = 50;

/** The cursor of the page after the one ending with this row (marked with its order when not the list's own). */
export const cursorOf = (row: { created_at: number; seq: number }, page?: Page) =>
  `${row.created_at}.${row.seq}${!page || page.own ? '' : page.newest ? '.n' : '.o'}`;

/**
 * `table`'s active rows of `parent`, in the list's order, from after the page's cursor, one row more than the page
 * (how `pageRows` knows another page follows). Callers narrow it further (`where`) before running it.
 */
export function activeRowsOf<T extends Listed>(
  db: Kysely<DB>,
  table: T,
  parent: string,
  page: Page | null,
): SelectQueryBuilder<DB, T, Selectable<DB[T]>> {
  const { parent: column } = LISTS[table];
  const newest = newestFirst(table, page);
  const dir = newest ? 'desc' : 'asc';
  // Kysely cannot follow a column name chosen from a table union; the table's own row type is restored below.
  let q = (db as unknown as Kysely<Record<string, { created_at: number; seq: number; active: number; [k: string]: unknown }>>)
    .selectFrom(table)
    .selectAll()
    .where(column, '=', parent)
    // A literal, not a parameter: the partial indexes of active rows (migration 15) then match any plan, generic too.
    .where('active', '=', sql.lit(1));
  // The table's own columns, as a caller may join another table with a name.
  for (const c of pageConditions(page, table, pageValues(page))) q = q.where(c);
  q = q.orderBy('created_at', dir).orderBy('seq', dir);
  if (page) q = q.limit(page.limit + 1);
  return q as unknown as SelectQueryBuilder<DB, T, Selectable<DB[T]>>;
}

/**
 * A page's conditions on the rows `alias` names: the name search (a substring in any case; strpos, so % and _ are
 * only characters) and the cursor, with the page's values `v` (or a statement's parameters standing for them).
 */
function pageConditions(page: Page | null, alias: string, v: Pick<PageValues, 'q' | 'at' | 'seq'>): RawBuilder<boolean>[] {
  const col = (c: 'name' | 'created_at' | 'seq') => sql.ref(`${alias}.${c}`);
  const out: RawBuilder<boolean>[] = [];
  if (page?.q) out.push(sql<boolean>`strpos(lower(${col('name')}), lower(${v.q}::text)) > 0`);
  if (page?.after) {
    out.push(sql<boolean>`(${col('created_at')}, ${col('seq')}) ${sql.raw(page.newest ? '<' : '>')} (${v.at}::bigint, ${v.seq}::bigint)`);
  }
  return out;
}

/** A page's values, bound to the parameters of a page statement (`pageOfRows`). */
export interface PageValues {
  q: string;
  at: number;
  seq: number;
  /** The page's rows and one more (how `pageRows` knows another page follows). */
  limit: number;
}

export const pageValues = (page: Page | null): PageValues => ({
  q: page?.q ?? '',
  at: page?.after?.at ?? 0,
  seq: page?.after?.seq ?? 0,
  limit: (page?.limit ?? 0) + 1,
});

/** What changes a page statement's text: a page or the whole list, its order, a search, a cursor. */
export const pageShape = (page: Page | null, newest: boolean) =>
  `${page ? 'page' : 'all'} ${newest ? 'newest' : 'oldest'}${page?.q ? ' q' : ''}${page?.after ? ' after' : ''}`;

/**
 * A page of the rows `rows` reads (`select ... from table alias ... where ...`): the page's conditions (pageConditions,
 * with the call's values as `p`'s parameters), its order and its limit, as a statement to use in another (in `with`,
 * or in `from` as `alias`). The limit is a parameter under a fixed cap, the largest page: a prepared statement's
 * generic plan estimates an unknown limit as a tenth of what it limits, so under the cap it costs a page, and
 * PostgreSQL keeps that one plan rather than planning each call again (a list's statement took 1.2 ms when planned on
 * every call, 0.5 ms with its plan kept).
 */
export function pageOfRows<D, TB extends keyof D, O>(
  db: object,
  rows: SelectQueryBuilder<D, TB, O>,
  alias: string,
  page: Page | null,
  newest: boolean,
  p: PageValues,
): SelectQueryBuilder<D, TB, O> {
  const dir = newest ? 'desc' : 'asc';
  const col = (c: 'created_at' | 'seq') => sql.ref(`${alias}.${c}`);
  let q = rows;
  for (const c of pageConditions(page, alias, p)) q = q.where(c);
  q = q.orderBy(col('created_at'), dir).orderBy(col('seq'), dir);
  if (!page) return q;
  // The table's alias names the page too, so the statement around it reads the same columns either way.
  return (db as QueryCreator<Record<string, Record<string, unknown>>>)
    .selectFrom(q.limit(sql.lit(LIST_PAGE_MAX + 1)).as(alias))
    .selectAll()
    .orderBy(col('created_at'), dir)
    .orderBy(col('seq'), dir)
    .limit(sql<number>`${p.limit}::bigint`) as unknown as SelectQueryBuilder<D, TB, O>;
}

/** Whether a list reads newest first: the page's order, or the list's own without a page. */
export const newestFirst = (table: Listed, page: Page | null) => (page ? page.newest : LISTS[table].newest);

/** A page's rows and the cursor of the next one (null on the last page); the whole list without a page. */
export function pageRows<R extends { created_at: number; seq: number }>(rows: R[], page: Page | null): { rows: R[]; next?: string | null } {
  if (!page) return { rows };
  const more = rows.length > page.limit;
  const kept = more ? rows.slice(0, page.limit) : rows;
  return { rows: kept, next: more ? cursorOf(kept[kept.length - 1], page) : null };
}

/** The list envelope: `next` only when a page was asked for, so an answer without one is exactly SPEC's. */
export const listOut = <T>(list: T[], next: string | null | undefined) => (next === undefined ? { list } : { list, next });

/** Rows in a list's order: a statement of several parts (a union) gives its rows in no set order. */
export function inListOrder<R extends { created_at: number; seq: number }>(rows: R[], newest: boolean): R[] {
  const sign = newest ? -1 : 1;
  return rows.sort((a, b) => sign * (a.created_at - b.created_at || a.seq - b.seq));
}
