// Paging state for a long list: the page size and the cursors walked so far, so Next and Previous need no counting.
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

/** Pages of `limit` rows; the list hooks take `pager.page` and answer `next`. */
export function usePager(limit: number): Pager {
  // The cursors of every page before the current one, the first page's being none.
  const [trail, setTrail] = useState<string[]>([]);
  const next = useCallback((cursor: string | null | undefined) => {
    if (cursor) setTrail((t) => [...t, cursor]);
  }, []);
  const previous = useCallback(() => setTrail((t) => t.slice(0, -1)), []);
  const first = useCallback(() => setTrail([]), []);
  const cursor = trail.at(-1);
  const page = useMemo(() => (cursor ? { limit, cursor } : { limit }), [limit, cursor]);
  return { page, number: trail.length + 1, next, previous, first };
}
