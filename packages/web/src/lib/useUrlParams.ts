// State a page keeps in its query string (a list's filter, sort and page; the audit and usage filters), so a link,
// Back and reload bring it back.
import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * The query string and a setter for some of its names: '' or null removes a name. `replace` (the default) changes the
 * current history entry, as typing should; `replace: false` makes a step Back returns from.
 */
export function useUrlParams() {
  const [params, setParams] = useSearchParams();
  const set = useCallback(
    (changes: Record<string, string | null>, replace = true) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [k, v] of Object.entries(changes)) {
            if (v === null || v === '') next.delete(k);
            else next.set(k, v);
          }
          return next;
        },
        { replace },
      ),
    [setParams],
  );
  return { params, set };
}
