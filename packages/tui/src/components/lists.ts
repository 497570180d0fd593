// What list screens share with the web portal's tables: newest first, the load failure's text, and live refreshing.
import { useEffect } from 'react';
import { isApiError } from '@portal/core';

/** Newest first (the web portal's tables open sorted by Created, descending). */
export function newestFirst<T extends { createdAt: number }>(rows: readonly T[] | undefined): T[] | undefined {
  if (!rows) return rows;
  // Times count whole seconds: rows made in the same second keep the server's order, which for a list it sends oldest
  // first (projects, keys) must be turned round too, so the one made last comes first.
  const oldestFirst = rows.length > 1 && rows[0].createdAt <= rows[rows.length - 1].createdAt;
  return (oldestFirst ? [...rows].reverse() : [...rows]).sort((a, b) => b.createdAt - a.createdAt);
}

/** What a list shows when it could not be loaded: SPEC's message when it names one; nothing for sign-in failures (they leave the screen). */
export function loadFailure(error: unknown, message?: string): string | null {
  if (!error || (isApiError(error) && error.isAuth)) return null;
  return message ?? (isApiError(error) ? error.display : null);
}

/** Reloads every `ms` while `active` (requests and uploads change state on the server). */
export function useRefreshWhile(active: boolean, reload: () => Promise<void> | void, ms: number): void {
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => void reload(), ms);
    return () => clearInterval(t);
  }, [active, reload, ms]);
}
