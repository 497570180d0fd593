// Reloads a list on an interval while something in it is still changing on the server.
import { useEffect, useRef } from 'react';

export function useRefreshWhile(active: boolean, reload: () => Promise<unknown>, everyMs: number): void {
  const latest = useRef(reload);
  latest.current = reload;
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => void latest.current(), everyMs);
    return () => clearInterval(t);
  }, [active, everyMs]);
}
