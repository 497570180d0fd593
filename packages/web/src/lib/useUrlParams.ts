// State a page keeps in its query string (a list's filter, sort and page; the audit and usage filters), so a link,
// Back and reload bring it back.
import { useCallback, useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * The query string and a setter for some of its names: '' or null removes a name. `replace` (the default) changes the
 * current history entry, as typing should; `replace: false` makes a step Back returns from.
 */
export function useUrlParams() {
  const [params, setParams] = useSearchParams();
  // Two changes before the next render (clearing the filter, then sorting) build on each other: the router's `prev`
  // is the query of the last render, which would bring the first change back.
  const written = useRef<URLSearchParams | null>(null);
  useEffect(() => {
    written.current = null;
  }, [params]);
  const set = useCallback(
    (changes: Record<string, string | null>, replace = true) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(written.current ?? prev);
          for (const [k, v] of Object.entries(changes)) {
            if (v === null || v === '') next.delete(k);
            else next.set(k, v);
          }
          written.current = next;
          return next;
        },
        { replace },
      ),
    [setParams],
  );
  return { params, set };
}
