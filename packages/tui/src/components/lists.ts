// What list screens share with the web portal's tables: newest first, and what a list takes from its core hook.
import { loadFailure } from '@portal/core';
import type { ListPaging } from '@portal/core/react';

/** Newest first (the web portal's tables open sorted by Created, descending). */
export function newestFirst<T extends { createdAt: number }>(rows: readonly T[] | undefined): T[] | undefined {
  if (!rows) return rows;
  // Times count whole seconds: rows made in the same second keep the server's order, which for a list it sends oldest
  // first (projects, keys) must be turned round too, so the one made last comes first.
  const oldestFirst = rows.length > 1 && rows[0].createdAt <= rows[rows.length - 1].createdAt;
  return (oldestFirst ? [...rows].reverse() : [...rows]).sort((a, b) => b.createdAt - a.createdAt);
}

/**
 * A whole list newest first; a long list's page as the server sends it (a page turned round would not follow on),
 * and so a list asked newest first of the server (the project list's first answer), rows of one second included.
 */
export const listOrder = <T extends { createdAt: number }>(rows: readonly T[] | undefined, paging: ListPaging): T[] | undefined =>
  paging.long || paging.page.order === 'newest' ? rows && [...rows] : newestFirst(rows);

/** What a project's list (or the client's projects) hands its ListView from the core hook that loads it. */
interface ListLoad {
  data: { next?: string | null } | undefined;
  error: unknown;
  loading: boolean;
}

/**
 * A list paged on the server as its ListView takes it, the same on every such screen: its rows in order, the paging
 * and the last answer's `next`, whether it is loading, its failure (SPEC's message where the screen names one), and
 * each row keyed by its id.
 */
export function fromList<T extends { createdAt: number; stamp: string }>(
  load: ListLoad,
  rows: readonly T[] | undefined,
  paging: ListPaging,
  failure?: string,
) {
  return {
    rows: listOrder(rows, paging),
    paging: { of: paging, next: load.data?.next },
    loading: load.loading,
    error: loadFailure(load.error, failure),
    keyOf: (row: T) => row.stamp,
  };
}
