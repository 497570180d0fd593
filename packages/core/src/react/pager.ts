// Paging state for a long list: the page size and the cursors walked so far, so Next and Previous need no counting;
// and the rule of when a list screen pages on the server (useListPaging).
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ListOrder } from '../contract';
import { useTimers } from './context';

export interface Pager {
  /** What the list hook asks for: `limit` rows after `cursor` (none on the first page), in `order`, names with `q`. */
  page: { limit: number; cursor?: string; order?: ListOrder; q?: string };
  /** 1 on the first page. */
  number: number;
  /** Goes on to the page whose cursor the last answer gave as `next` (nothing when it was null). */
  next(cursor: string | null | undefined): void;
  previous(): void;
  first(): void;
}

/** A log read newest first, a page at a time (the audit log, security events, webhook deliveries). */
export interface LogPages {
  /** 1 for the newest page. */
  page: number;
  hasOlder: boolean;
  older(): void;
  newer(): void;
}

/** Where the cursors walked are kept: component state by default; the web keeps them in the URL (Back, reload). */
export interface TrailStore {
  trail: readonly string[];
  setTrail(trail: string[]): void;
}

function useStateTrail(): TrailStore {
  const [trail, setTrail] = useState<string[]>([]);
  return { trail, setTrail };
}

/** Pages of `limit` rows; the list hooks take `pager.page` and answer `next`. */
export function usePager(limit: number, store?: TrailStore): Pager {
  const own = useStateTrail();
  // The cursors of every page before the current one, the first page's being none.
  const { trail, setTrail } = store ?? own;
  const next = useCallback(
    (cursor: string | null | undefined) => {
      if (cursor) setTrail([...trail, cursor]);
    },
    [trail, setTrail],
  );
  const previous = useCallback(() => setTrail(trail.slice(0, -1)), [trail, setTrail]);
  const first = useCallback(() => {
    if (trail.length) setTrail([]);
  }, [trail, setTrail]);
  const cursor = trail.at(-1);
  const page = useMemo(() => (cursor ? { limit, cursor } : { limit }), [limit, cursor]);
  const number = trail.length + 1;
  return useMemo(() => ({ page, number, next, previous, first }), [page, number, next, previous, first]);
}

/**
 * Lists of at most this many rows are held whole, as SPEC's list call answers them: the screen filters, sorts and
 * pages them itself. A list screen first asks for this many; an answer that says more follow (`next`) makes the list
 * long, and from then on it pages on the server.
 */
export const WHOLE_LIST_MAX = 200;

/**
 * When a list screen pages on the server: what its list hook asks for (`page`), and, once the list is long, the
 * pages walked (Next and Previous). Give it to useProjects, useUploads, useRuns or useModels, which tell it what the
 * list answered. A long list that the server searches (`searched`: the project list) opens newest first as a whole
 * one does: its filter box searches the names on the server and its Created sort is the server's order; in the other
 * long lists the rows are the server's page in the server's order and a screen's filter and sort apply to that page
 * (docs/DECISIONS.md, Lists that page).
 */
export interface ListPaging extends Pager {
  /** More than WHOLE_LIST_MAX rows: pages of the screen's size on the server. False until an answer says so. */
  long: boolean;
  /** What the list answered: its `next` (the first answer decides whether the list is long). */
  seen(next: string | null | undefined): void;
  /** The server searches and orders this long list: the filter box is a search, Created its order. */
  searched: boolean;
  /** The filter box's text, as typed; a long list searched sends it (trimmed) once typing pauses. */
  search: string;
  setSearch(text: string): void;
  /** The order of a long list searched (newest first until the user turns it). */
  order: ListOrder;
  setOrder(order: ListOrder): void;
}

/** Where the filter box's text and the order are kept: component state by default; the web keeps them in the URL. */
export interface ViewStore {
  search: string;
  setSearch(text: string): void;
  order: ListOrder;
  setOrder(order: ListOrder): void;
}

/** The column id of a list's Created sort: on a long list searched, that sort is the server's order. */
export const CREATED_SORT = 'createdAt';

/** A screen's sort as a long list's server order: Created up is oldest first; any other leaves it newest first. */
export const orderOfSort = (sort: { id: string; dir: 'asc' | 'desc' } | null): ListOrder =>
  sort?.id === CREATED_SORT && sort.dir === 'asc' ? 'oldest' : 'newest';

/** How long typing must pause before a long list's search goes to the server. */
export const SEARCH_DEBOUNCE_MS = 250;

/** What a long list searched on the server shows when no name matches (web and terminal alike). */
export const SEARCH_NO_MATCH = 'No name matches the search.';

function useStateView(): ViewStore {
  const [search, setSearch] = useState('');
  const [order, setOrder] = useState<ListOrder>('newest');
  return { search, setSearch, order, setOrder };
}

/** `value`, once it has stayed the same for `ms` (core's timers, so tests run it on a fake clock). */
function useSettled(value: string, ms: number): string {
  const timers = useTimers();
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    if (value === settled) return;
    const h = timers.setTimeout(() => setSettled(value), ms);
    return () => timers.clearTimeout(h);
  }, [value, settled, ms, timers]);
  return settled;
}

export interface ListPagingOptions {
  /** The cursors walked (the web: the URL). */
  trail?: TrailStore;
  /** The filter box's text and the order (the web: the URL). */
  view?: ViewStore;
  /** The list's server call takes `order` and `q` (the project list). */
  searched?: boolean;
}

export function useListPaging(size: number, options: ListPagingOptions = {}): ListPaging {
  const { searched = false } = options;
  const pager = usePager(size, options.trail);
  const own = useStateView();
  const view = options.view ?? own;
  // A trail kept in the URL (a page after the first, reloaded) says at once that the list is long.
  const [found, setFound] = useState(false);
  const long = found || pager.number > 1;
  const seen = useCallback((next: string | null | undefined) => {
    if (next) setFound(true);
  }, []);
  const q = useSettled(view.search.trim(), SEARCH_DEBOUNCE_MS);
  const order = view.order;
  // The pages walked belong to one search and order: another one starts again at its first page. Until that has
  // happened the first page is asked for (a cursor of one order is refused in another).
  const asked = `${order}\n${q}`;
  const [walkedFor, setWalkedFor] = useState(asked);
  const stale = searched && walkedFor !== asked;
  const { first } = pager;
  useEffect(() => {
    if (!stale) return;
    first();
    setWalkedFor(asked);
  }, [stale, asked, first]);
  // The first answer of a list searched comes in the order the screen opens with: a long list's first rows shown are
  // then already the right ones (a whole list is the same rows in either order; later sorts of it are the screen's).
  const [opened] = useState(order);
  const page = useMemo(() => {
    if (!long) return searched ? { ...WHOLE_PAGE, order: opened } : WHOLE_PAGE;
    const base = stale ? { limit: size } : pager.page;
    return searched ? { ...base, order, ...(q ? { q } : {}) } : base;
  }, [long, stale, size, pager.page, searched, order, opened, q]);
  const { search, setSearch, setOrder } = view;
  return useMemo(
    () => ({ ...pager, number: stale ? 1 : pager.number, page, long, seen, searched, search, setSearch, order, setOrder }),
    [pager, stale, page, long, seen, searched, search, setSearch, order, setOrder],
  );
}

const WHOLE_PAGE = { limit: WHOLE_LIST_MAX };
