// The one data cache behind every screen (TanStack Query's core): the keys of what is read, built here and nowhere
// else; how long an answer is kept and trusted; when a failed read is tried again; which reads a change to a thing
// makes old (invalidation by noun); and a rename shown at once in every answer held.
import {
  environmentManager,
  focusManager,
  notifyManager,
  QueryCache,
  QueryClient,
  timeoutManager,
  type Query,
  type QueryKey,
} from '@tanstack/query-core';
import type { CallName } from './contract';
import { ApiError } from './client';
import { FOCUS_REFRESH_MIN_MS } from './refresh';
import { systemTimers, type Timers } from './timers';

/**
 * The key of one read: the contract's call name and the parameters it is sent with. A key with a third part is a
 * screen's view built from that call and others (a request with its events, the quick search's targets): the answer
 * it holds has another shape, so it never shares the plain call's entry.
 */
export type CallKey = readonly [name: CallName, params: Record<string, unknown>, view?: string];

/** Parameters as a key holds them: absent and undefined ones left out, so equal reads have equal keys. */
function keyParams(params: object | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params ?? {})) if (v !== undefined && v !== '') out[k] = v;
  return out;
}

/** The key of `name` sent with `params`: every screen reading the same call with the same parameters shares it. */
export const callKey = (name: CallName, params?: object): CallKey => [name, keyParams(params)];

/** The key of a view built from `name` (and the calls it names) with `params`. */
export const viewKey = (name: CallName, params: object | undefined, view: string): CallKey => [name, keyParams(params), view];

/**
 * The parameters that pick a page of a list (or a search of it) rather than another list. Not the page's size: a
 * whole list that turns out long is asked again in pages, and its whole answer is not a page of those.
 */
const PAGE_PARAMS = new Set(['cursor', 'order', 'q']);

/**
 * Whether two keys read the same list and differ only in its page, order or search: a screen moving between them
 * keeps showing the rows it has until the new page arrives (keepPreviousData); another list starts from its own.
 */
export function samePagedList(a: QueryKey, b: QueryKey): boolean {
  if (a[0] !== b[0] || a[2] !== b[2]) return false;
  const rest = (k: QueryKey) =>
    JSON.stringify(Object.entries((k[1] ?? {}) as Record<string, unknown>).filter(([name]) => !PAGE_PARAMS.has(name)));
  return rest(a) === rest(b);
}

/** The quick search's targets read every list: any change to a thing makes them old. */
export const JUMP_VIEW = 'jump';
/** The Get started path reads the projects, keys and models: any change to a thing makes it old. */
export const START_VIEW = 'getStarted';
const SUMMARY_VIEWS: readonly unknown[] = [JUMP_VIEW, START_VIEW];

/** The things a person creates, renames and removes, as the notices name them. */
export type Noun = 'Client' | 'Project' | 'Upload' | 'Request' | 'Model' | 'API key' | 'Integration' | 'Member' | 'Webhook';

/**
 * Which calls' answers show each thing (its name, its presence in a list, a count of them). A change to one makes
 * each of these old: the ones on screen are read again at once, the others when next shown.
 */
export const SHOWN_IN: Record<Noun, readonly CallName[]> = {
  Client: ['permissions', 'bucketList', 'apikeyList', 'integrationList', 'memberList', 'billingStatus', 'clientUsage'],
  Project: ['bucketList', 'rendList', 'runList', 'clientModelList', 'runStatus', 'quoteStatus', 'clientUsage'],
  Upload: ['rendList', 'uploadPreview', 'runStatus', 'quoteStatus', 'bucketList'],
  Request: ['runList', 'runStatus', 'quoteStatus', 'runProjection', 'clientUsage', 'clientModelList', 'bucketList'],
  Model: ['clientModelList', 'generalModelList', 'runStatus', 'runList'],
  'API key': ['apikeyList'],
  Integration: ['integrationList'],
  // The webhook list's view carries the caller's role (owners manage endpoints): a role change makes it old too.
  Member: ['memberList', 'inviteList', 'permissions', 'audit', 'webhookList'],
  Webhook: ['webhookList', 'webhookShow', 'webhookDeliveries', 'webhookDelivery', 'audit'],
};

/** Whether a held read shows `noun`: its call is one that does, or it sums up everything (quick search, Get started). */
export function showsNoun(key: QueryKey, noun: Noun): boolean {
  return (SHOWN_IN[noun] as readonly unknown[]).includes(key[0]) || SUMMARY_VIEWS.includes(key[2]);
}

/**
 * How long an answer is trusted: a screen shown again within this long draws it from the cache and does not ask;
 * later it draws it at once and reads it again behind it. It is also the least time between two reads on focus.
 */
export const STALE_MS = FOCUS_REFRESH_MIN_MS;
/** How long an answer no screen shows is kept for Back: a list or detail seen in the last five minutes shows at once. */
export const KEEP_MS = 5 * 60_000;

/** Longest wait a Retry-After may ask for before the read is tried again; past it the failure shows. */
export const RETRY_AFTER_MAX_MS = 30_000;

/**
 * Whether a failed read is tried again. The client already tries a read again after a failed connection or a
 * 502/503/504 (RETRY_DELAYS_MS); above it, the cache tries once more only when the server said when (Retry-After on a
 * 429 or 503) within RETRY_AFTER_MAX_MS. A refusal (any other 4xx) and a sign-in failure are never tried again.
 */
export function retryRead(failures: number, error: unknown): boolean {
  if (failures >= 1 || !(error instanceof ApiError) || error.isAuth) return false;
  const wait = error.retryAfterMs;
  return wait !== undefined && wait <= RETRY_AFTER_MAX_MS && (error.status === 429 || error.status === 503);
}

/** The wait before that one more try: what the server's Retry-After asked for. */
export const retryReadDelay = (_failures: number, error: unknown): number => (error instanceof ApiError ? (error.retryAfterMs ?? 0) : 0);

/**
 * The timers polls run on: the platform's, or a test's manual clock given to the PortalProvider. The cache's own
 * timers (staleness, keeping) stay on the platform's; only a poll (refetchInterval) runs on these, so a test fires
 * exactly the polls.
 */
let pollTimers: Timers = systemTimers;
export function setPollTimers(timers: Timers): void {
  pollTimers = timers;
}

type Interval = { stopped: boolean; handle: unknown; timers: Timers; [Symbol.toPrimitive]: () => number };
let intervals = 0;

timeoutManager.setTimeoutProvider<number | Interval>({
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms) as unknown as number,
  clearTimeout: (id) => globalThis.clearTimeout(id as number),
  // A poll: the next read `ms` after the last; the cache clears it and sets a new one whenever a read settles.
  setInterval: (fn, ms) => {
    const n = ++intervals;
    const timers = pollTimers;
    const interval: Interval = { stopped: false, handle: null, timers, [Symbol.toPrimitive]: () => n };
    const tick = () => {
      if (interval.stopped) return;
      interval.handle = timers.setTimeout(tick, ms);
      fn();
    };
    interval.handle = timers.setTimeout(tick, ms);
    return interval;
  },
  clearInterval: (id) => {
    const interval = id as Interval | undefined;
    if (!interval || typeof interval !== 'object') return;
    interval.stopped = true;
    interval.timers.clearTimeout(interval.handle);
  },
});

// Core's hooks run in a browser or a terminal, never on a server: polls and keeping apply in both (the terminal
// has no window, which the library would otherwise take for a server).
environmentManager.setIsServer(() => false);

// A browser window's focus or a tab shown again reads the stale answers on screen again (a change made in another tab
// shows without a reload). The terminal has no window: its UI gives its own focus reports to the PortalProvider.
focusManager.setEventListener((setFocused) => {
  if (typeof window === 'undefined' || !window.addEventListener) return undefined;
  const changed = () => setFocused();
  window.addEventListener('focus', changed);
  window.addEventListener('visibilitychange', changed);
  return () => {
    window.removeEventListener('focus', changed);
    window.removeEventListener('visibilitychange', changed);
  };
});

// Screens learn of a settled read in the same turn (a microtask, still batched), not a timer later: a change's notice
// follows the screens' redraw with the new data, never precedes it.
notifyManager.setScheduler(queueMicrotask);

export interface PortalQueryOptions {
  /** A read failed (after its tries): `first` is false while the same read keeps failing. */
  onReadError?(error: ApiError, query: Query<unknown, unknown, unknown, QueryKey>, first: boolean): void;
}

/** The cache of one signed-in door: fresh for each PortalProvider (and so for each test). */
export function createPortalQueryClient(opts: PortalQueryOptions = {}): QueryClient {
  const failing = new WeakSet<object>();
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        const first = !failing.has(query);
        failing.add(query);
        opts.onReadError?.(error as ApiError, query as Query<unknown, unknown, unknown, QueryKey>, first);
      },
      onSuccess: (_data, query) => void failing.delete(query),
    }),
    defaultOptions: {
      queries: {
        staleTime: STALE_MS,
        gcTime: KEEP_MS,
        retry: retryRead,
        retryDelay: retryReadDelay,
        refetchOnWindowFocus: true,
        refetchOnReconnect: true,
      },
    },
  });
}

/** Makes every held read that shows `noun` old: those on screen are read again now, the rest when next shown. */
export function invalidateNoun(client: QueryClient, noun: Noun): Promise<void> {
  return client.invalidateQueries({ predicate: (q) => showsNoun(q.queryKey, noun) });
}

/** A copy of `value` with the thing `id` (its stamp, or a key's clue) called `name` wherever it appears. */
function renamed(value: unknown, id: string, name: string): unknown {
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const r = renamed(v, id, name);
      if (r !== v) changed = true;
      return r;
    });
    return changed ? out : value;
  }
  if (!value || typeof value !== 'object') return value;
  const o = value as Record<string, unknown>;
  let out: Record<string, unknown> | null = null;
  for (const [k, v] of Object.entries(o)) {
    const r = renamed(v, id, name);
    if (r !== v) (out ??= { ...o })[k] = r;
  }
  if ((o.stamp === id || o.clue === id) && typeof o.name === 'string' && o.name !== name) (out ??= { ...o }).name = name;
  return out ?? o;
}

/**
 * Shows `id` as `name` at once in every held read that shows `noun` (lists, details, the chrome's names, the quick
 * search), before the server has answered. Resolves to the undo: puts back every answer as it was.
 */
export async function renameEverywhere(client: QueryClient, noun: Noun, id: string, name: string): Promise<() => void> {
  const filters = { predicate: (q: Query) => showsNoun(q.queryKey, noun) };
  // A read in flight would bring back the old name over the new one.
  await client.cancelQueries(filters);
  const before = client.getQueriesData(filters);
  for (const [key, data] of before) {
    const next = renamed(data, id, name);
    if (next !== data) client.setQueryData(key, next);
  }
  return () => {
    for (const [key, data] of before) client.setQueryData(key, data);
  };
}
