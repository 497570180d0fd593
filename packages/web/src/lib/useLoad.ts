// Loads data for a page: on mount and when deps change, aborted on unmount, optional polling until a condition holds.
import { useCallback, useEffect, useRef, useState } from 'react';
import { isApiError, type ApiError } from '@portal/core';
import { notify } from './notify';

export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | Error | null;
  loading: boolean;
  reload(): Promise<void>;
}

export interface LoadOptions<T> {
  /** SPEC's notice when loading fails; otherwise the call's own message is shown. */
  failure?: string;
  pollMs?: number;
  until?: (data: T) => boolean;
  /** Skip loading (e.g. a missing parameter). */
  skip?: boolean;
}

export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: unknown[], opts: LoadOptions<T> = {}): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<ApiError | Error | null>(null);
  const [loading, setLoading] = useState(!opts.skip);
  const loadRef = useRef(load);
  loadRef.current = load;
  const optsRef = useRef(opts);
  optsRef.current = opts;
  const ctrl = useRef<AbortController | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const run = useCallback(async (quiet: boolean) => {
    if (optsRef.current.skip) return;
    ctrl.current?.abort();
    if (timer.current) clearTimeout(timer.current);
    const c = new AbortController();
    ctrl.current = c;
    if (!quiet) setLoading(true);
    try {
      const value = await loadRef.current(c.signal);
      if (c.signal.aborted) return;
      setData(value);
      setError(null);
      const { pollMs, until } = optsRef.current;
      if (pollMs && !(until && until(value))) timer.current = setTimeout(() => void run(true), pollMs);
    } catch (e) {
      if (c.signal.aborted || (e as Error)?.name === 'AbortError') return;
      setError(e as Error);
      if (!(isApiError(e) && e.isAuth)) notify(optsRef.current.failure ?? (isApiError(e) ? e.display : (e as Error).message), 'error');
      const { pollMs } = optsRef.current;
      // A poll that failed once tries again more slowly instead of giving up on a live page.
      if (pollMs && !(isApiError(e) && (e.isAuth || e.status === 404 || e.status === 403))) timer.current = setTimeout(() => void run(true), pollMs * 3);
    } finally {
      if (!c.signal.aborted) setLoading(false);
    }
  }, []);

  useEffect(() => {
    void run(false);
    return () => {
      ctrl.current?.abort();
      if (timer.current) clearTimeout(timer.current);
    };
  }, deps);

  const reload = useCallback(() => run(true), [run]);
  return { data, error, loading, reload };
}
