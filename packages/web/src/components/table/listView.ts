// A list's view state: its filter, sort and page kept in the URL (Back and reload restore them), the rows they leave,
// and a long list's server paging (core's useListPaging) with its cursors in the URL too.
import { useEffect, useMemo } from 'react';
import { CREATED_SORT, orderOfSort, useListPaging, type ListPaging, type ViewStore } from '@portal/core/react';
import { useUrlParams } from '../../lib/useUrlParams';
import type { Column } from './columns';

export const PAGE_SIZE = 25;

export type Sort = { id: string; dir: 'asc' | 'desc' };

/** `name` sorts up, `-name` down. */
const readSort = (v: string | null): Sort | null =>
  v ? (v.startsWith('-') ? { id: v.slice(1), dir: 'desc' } : { id: v, dir: 'asc' }) : null;
const writeSort = (s: Sort) => (s.dir === 'desc' ? `-${s.id}` : s.id);

/** "1-25 of 55": SPEC's hyphen rather than MUI's en dash; a long list's page before the last says "of more than 50". */
export const pageLabel = ({ from, to, count }: { from: number; to: number; count: number }) =>
  `${from}-${to} of ${count === -1 ? `more than ${to}` : count}`;

/**
 * A list's filter, sort and page in the query string: a page or sort change is a step Back returns from, typing in
 * the filter replaces the entry (Back does not replay each letter). Defaults are left out of the URL.
 */
function useListUrlState(key: string | undefined, initialSort: Sort | undefined) {
  const { params, set } = useUrlParams();
  const name = (n: string) => (key ? `${key}.${n}` : n);
  const query = params.get(name('q')) ?? '';
  const sort = readSort(params.get(name('sort'))) ?? initialSort ?? null;
  const page = Math.max(0, (Number.parseInt(params.get(name('page')) ?? '1', 10) || 1) - 1);
  const update = (changes: Record<string, string | null>, replace: boolean) =>
    set(Object.fromEntries(Object.entries(changes).map(([k, v]) => [name(k), v])), replace);
  return {
    query,
    sort,
    page,
    setQuery: (q: string) => update({ q, page: null }, true),
    setSort: (s: Sort | null) =>
      update(
        { sort: s && !(initialSort && s.id === initialSort.id && s.dir === initialSort.dir) ? writeSort(s) : null, page: null },
        false,
      ),
    setPage: (p: number, replace = false) => update({ page: p > 0 ? String(p + 1) : null }, replace),
  };
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: 'base' });
}

/**
 * What the table shows of `rows`: filtered by the box (unless the server searched), sorted, and cut to the page. A
 * long list comes in the server's order: a sort picked applies to the page shown.
 */
export function useListView<T>(
  rows: T[] | undefined,
  columns: Column<T>[],
  opts: { urlKey?: string; initialSort?: Sort; long: boolean; searched: boolean },
) {
  const { long, searched } = opts;
  const state = useListUrlState(opts.urlKey, long && !searched ? undefined : opts.initialSort);
  const { query, sort, page, setPage } = state;
  const shown = useMemo(() => {
    let list = rows ?? [];
    const q = searched ? '' : query.trim().toLowerCase();
    if (q)
      list = list.filter((r) =>
        columns.some(
          (c) =>
            c.value &&
            String(c.value(r) ?? '')
              .toLowerCase()
              .includes(q),
        ),
      );
    const col = sort && columns.find((c) => c.id === sort.id);
    if (sort && col?.value) {
      const v = col.value;
      list = [...list].sort((a, b) => compare(v(a), v(b)) * (sort.dir === 'asc' ? 1 : -1));
    }
    return list;
  }, [rows, query, sort, columns, searched]);

  // A filter or a shorter list (a removal) may leave the page past the end: back to the last page there is.
  const lastPage = Math.max(0, Math.ceil(shown.length / PAGE_SIZE) - 1);
  const settled = rows !== undefined && !long;
  useEffect(() => {
    if (settled && page > lastPage) setPage(lastPage, true);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- setPage is a new closure each render; page and lastPage say when
  }, [settled, page, lastPage]);
  const visible = long ? shown : shown.slice(page * PAGE_SIZE, page * PAGE_SIZE + PAGE_SIZE);
  const toggle = (id: string) => state.setSort(sort?.id === id ? { id, dir: sort.dir === 'asc' ? 'desc' : 'asc' } : { id, dir: 'asc' });
  return { ...state, shown, visible, lastPage, toggle };
}

/**
 * A list page's paging for its table and its list hook (core's useListPaging, pages of PAGE_SIZE): the cursors of
 * the pages walked are kept in the URL (`after`, or `{urlKey}.after`), so Back, reload and a link return to the page.
 * `searched`: the list's server call searches and orders (the project list), so a long one is searched by the filter
 * box (`q`) and ordered by the Created sort (`sort`), both in the URL as they are for a whole list.
 */
export function useTablePaging({ urlKey, searched = false }: { urlKey?: string; searched?: boolean } = {}): ListPaging {
  const { params, set } = useUrlParams();
  const key = (n: string) => (urlKey ? `${urlKey}.${n}` : n);
  const raw = params.get(key('after'));
  const trail = useMemo(() => (raw ? raw.split(',') : []), [raw]);
  const store = useMemo(
    () => ({ trail, setTrail: (t: string[]) => set({ [key('after')]: t.join(',') || null }, false) }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- key is a new closure each render; urlKey says when
    [trail, set, urlKey],
  );
  // A long list searched on the server: the filter box's text and the Created sort are the table's own, in the URL.
  const search = params.get(key('q')) ?? '';
  const order = orderOfSort(readSort(params.get(key('sort'))));
  const view = useMemo<ViewStore>(
    () => ({
      search,
      order,
      setSearch: (q) => set({ [key('q')]: q, [key('page')]: null }, true),
      setOrder: (o) =>
        set({ [key('sort')]: o === 'oldest' ? writeSort({ id: CREATED_SORT, dir: 'asc' }) : null, [key('page')]: null }, false),
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- key is a new closure each render; urlKey says when
    [search, order, set, urlKey],
  );
  return useListPaging(PAGE_SIZE, { trail: store, view, searched });
}
