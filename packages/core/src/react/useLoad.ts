// The generic loader hook: a thin subscription over core's Loader.
import { useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import type { ApiError } from '../client';
import { Loader, loadMissing } from '../loader';
import { FOCUS_REFRESH_MIN_MS } from '../refresh';
import { useNotify, useTimers } from './context';

export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | null;
  loading: boolean;
  /** The load failed because what it reads is not there (unknown, removed or another client's): "not found". */
  missing: boolean;
  reload(): Promise<void>;
}

export interface UseLoadOptions<T> {
  /** The SPEC message to notify when the load fails (once per run of failures). */
  failure?: string;
  /** Poll after each load; a function picks the interval from the data. */
  pollMs?: number | ((data: T) => number);
  /** Stop polling when true. */
  until?: (data: T) => boolean;
  /** Read again when the window regains focus or visibility (FOCUS_REFRESH_MIN_MS); on unless false. */
  refreshOnFocus?: boolean;
}

/**
 * Calls back when the browser window regains focus or the tab becomes visible, at most once per FOCUS_REFRESH_MIN_MS;
 * nothing outside a browser (the terminal UI has no window focus).
 */
function onWindowFocus(callback: () => void): () => void {
  if (typeof window === 'undefined' || typeof document === 'undefined' || !window.addEventListener) return () => undefined;
  let last = Date.now();
  const fire = () => {
    if (document.visibilityState === 'hidden' || Date.now() - last < FOCUS_REFRESH_MIN_MS) return;
    last = Date.now();
    callback();
  };
  window.addEventListener('focus', fire);
  document.addEventListener('visibilitychange', fire);
  return () => {
    window.removeEventListener('focus', fire);
    document.removeEventListener('visibilitychange', fire);
  };
}

/**
 * Runs load() on mount and when deps change, aborts it on unmount, and reloads on demand.
 * Sign-in failures (Token missing or expired) are not notified here: the door's onAuthFailure handles them.
 */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: unknown[], opts: UseLoadOptions<T> = {}): Loaded<T> {
  const notify = useNotify();
  const timers = useTimers();
  // The latest closures, so a new render's load and options apply without restarting the loader.
  const latest = useRef({ load, opts, notify });
  latest.current = { load, opts, notify };
  const polls = opts.pollMs !== undefined;

  const loader = useMemo(
    () =>
      new Loader<T>((signal) => latest.current.load(signal), {
        pollMs: polls
          ? (data: T) => {
              const p = latest.current.opts.pollMs;
              return typeof p === 'function' ? p(data) : (p ?? 0);
            }
          : undefined,
        until: (data) => latest.current.opts.until?.(data) ?? false,
        onError: (error, first) => {
          const { failure } = latest.current.opts;
          if (first && failure && !error.isAuth) latest.current.notify(failure, 'error');
        },
        timers,
      }),
    // useLoad takes a deps list as useEffect does: when to start again (a new client or project), which may name
    // more than the load reads; here that list itself is the dependency.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [...deps, polls, timers],
  );

  useEffect(() => {
    void loader.reload();
    return () => loader.stop();
  }, [loader]);

  const focusRefresh = opts.refreshOnFocus !== false;
  useEffect(() => (focusRefresh ? onWindowFocus(() => void loader.refresh()) : undefined), [loader, focusRefresh]);

  const state = useSyncExternalStore(loader.subscribe, loader.getSnapshot, loader.getSnapshot);
  return useMemo(() => ({ ...state, missing: loadMissing(state.data, state.error), reload: loader.reload }), [state, loader]);
}
