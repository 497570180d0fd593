// What list screens share with the web portal's tables: newest first, the load failure's text, and live refreshing.
import { useEffect } from 'react';

/** Newest first (the web portal's tables open sorted by Created, descending). */
export function newestFirst<T extends { createdAt: number }>(rows: readonly T[] | undefined): T[] | undefined {
  return rows && [...rows].sort((a, b) => b.createdAt - a.createdAt);
}

/** Reloads every `ms` while `active` (requests and uploads change state on the server). */
export function useRefreshWhile(active: boolean, reload: () => Promise<void> | void, ms: number): void {
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => void reload(), ms);
    return () => clearInterval(t);
  }, [active, reload, ms]);
}
