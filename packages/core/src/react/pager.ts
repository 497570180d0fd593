// Paging state for a long list: the page size and the cursors walked so far, so Next and Previous need no counting;
// and the rule of when a list screen pages on the server (useListPaging).
import { useCallback, useMemo, useState } from 'react';

export interface Pager {
  /** What the list hook asks for: `limit` rows after `cursor` (none on the first page). */
  page: { limit: number; cursor?: string };
  /** 1 on the first page. */
  number: number;
  /** Goes on to the page whose cursor the last answer gave as `next` (nothing when it was null). */
  next(cursor: string | null | undefined): void;
  previous(): void;
  first(): void;
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
 * list answered. In a long list the rows are the server's page in the server's order; a screen's filter and sort
 * apply to that page (docs/DECISIONS.md, Lists that page).
 */
export interface ListPaging extends Pager {
  /** More than WHOLE_LIST_MAX rows: pages of the screen's size on the server. False until an answer says so. */
  long: boolean;
  /** What the list answered: its `next` (the first answer decides whether the list is long). */
  seen(next: string | null | undefined): void;
}

export function useListPaging(size: number, store?: TrailStore): ListPaging {
  const pager = usePager(size, store);
  // A trail kept in the URL (a page after the first, reloaded) says at once that the list is long.
  const [found, setFound] = useState(false);
  const long = found || pager.number > 1;
  const seen = useCallback((next: string | null | undefined) => {
    if (next) setFound(true);
  }, []);
  const page = long ? pager.page : WHOLE_PAGE;
  return useMemo(() => ({ ...pager, page, long, seen }), [pager, page, long, seen]);
}

const WHOLE_PAGE = { limit: WHOLE_LIST_MAX };
