// The generic read hook: one entry of the shared data cache (TanStack Query), keyed by call and parameters.
import { useCallback, useMemo } from 'react';
import { keepPreviousData, useQuery, type Query } from '@tanstack/react-query';
import type { ApiError } from '../client';
import { loadMissing, toApiError } from '../loader';
import { samePagedList, type CallKey } from '../query';

export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | null;
  loading: boolean;
  /** The load failed because what it reads is not there (unknown, removed or another client's): "not found". */
  missing: boolean;
  /** A paged read shows the page before while its own is on the way (UseLoadOptions.paged). */
  placeholder: boolean;
  reload(): Promise<void>;
}

export interface UseLoadOptions<T> {
  /** The SPEC message to notify when the load fails (once per run of failures, whichever screens show it). */
  failure?: string;
  /** Poll after each load; a function picks the interval from the data. */
  pollMs?: number | ((data: T) => number);
  /** Stop polling when true. */
  until?: (data: T) => boolean;
  /** Read again when the window regains focus or visibility (at most once per STALE_MS); on unless false. */
  refreshOnFocus?: boolean;
  /** Read only while true (the quick search, while open). */
  enabled?: boolean;
  /**
   * A page of a list (or a search of it): moving to another page, order or search of the same list keeps the rows
   * shown until the new ones arrive, instead of a loading state.
   */
  paged?: boolean;
}

/** The next poll's wait for a held read, or false: none once `until` holds, and none after a refusal. */
function pollOf<R, T>(query: Query<R, ApiError, R, CallKey>, select: (raw: R) => T, opts: UseLoadOptions<T>): number | false {
  const { pollMs, until } = opts;
  if (pollMs === undefined) return false;
  const raw = query.state.data;
  const data = raw === undefined ? undefined : select(raw);
  const error = query.state.status === 'error' ? query.state.error : null;
  // Keep polling through passing trouble (network, server busy), not through a refusal.
  if (error && error.status !== 0 && error.status < 500) return false;
  if (data !== undefined && !error && until?.(data)) return false;
  if (typeof pollMs !== 'function') return pollMs;
  return data === undefined ? false : pollMs(data);
}

const same = <R>(raw: R) => raw as unknown;

/**
 * Reads `key` with `load` through the shared cache: a screen shown again within minutes draws the held answer at once
 * and reads it again behind it; screens reading the same key share one read. `select` shapes the call's answer for
 * this screen (the cache holds the answer as the call gave it, so other screens share it).
 * Sign-in failures are not notified here: the door's onAuthFailure handles them.
 */
export function useLoad<R, T = R>(
  key: CallKey,
  load: (signal: AbortSignal) => Promise<R>,
  opts: UseLoadOptions<T> & { select?: (raw: R) => T } = {},
): Loaded<T> {
  const select = (opts.select ?? same) as (raw: R) => T;
  const query = useQuery<R, ApiError, T, CallKey>({
    queryKey: key,
    queryFn: async ({ signal }) => {
      try {
        return await load(signal);
      } catch (e) {
        throw toApiError(e);
      }
    },
    select,
    meta: opts.failure ? { failure: opts.failure } : undefined,
    refetchInterval: (q) => pollOf(q, select, opts),
    refetchOnWindowFocus: opts.refreshOnFocus !== false,
    enabled: opts.enabled,
    placeholderData: opts.paged
      ? (previous, previousQuery) => (previousQuery && samePagedList(previousQuery.queryKey, key) ? keepPreviousData(previous) : undefined)
      : undefined,
  });
  const { refetch, data, error, isPending, isFetching, status, isPlaceholderData: placeholder } = query;
  const reload = useCallback(async () => {
    await refetch();
  }, [refetch]);
  // Loading until the first answer; a read again after a failure shows loading too (the answer held stays shown).
  const loading = (isPending && opts.enabled !== false) || (isFetching && status === 'error');
  return useMemo(
    () => ({ data, error: error ?? null, loading, missing: loadMissing(data, error), placeholder, reload }),
    [data, error, loading, placeholder, reload],
  );
}
