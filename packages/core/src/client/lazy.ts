// An ApiClient whose real implementation (zod schemas, ofetch) loads on the first call or when `ready()` is called,
// so a door draws its first screen without waiting for it. Only types come from the client module: importing this
// file loads no schema.
import type { ApiClient } from './api';
import type { CallName } from '../contract/calls';
import type { TokenStore } from './token';
import { resolveUrl } from './url';

export type LazyApiClient = ApiClient & {
  ready(): Promise<ApiClient>;
  /**
   * Starts a call now (loading the client if need be) that a screen about to render will make: the screen's first
   * identical call (same name and arguments) within PREFETCH_KEEP_MS gets this answer instead of asking again.
   */
  prefetch(name: CallName, args?: unknown): void;
};

/** How long a prefetched answer waits for the call it was made for. */
export const PREFETCH_KEEP_MS = 10_000;

/** The same key for the same arguments, whatever the order of their fields. */
const keyOf = (name: string, args: unknown) =>
  `${name} ${JSON.stringify(args ?? null, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>)
            .filter(([, x]) => x !== undefined)
            .sort(([a], [b]) => (a < b ? -1 : 1)),
        )
      : v,
  )}`;

/** `load` makes the real client (once); every method waits for it, except what needs no schema. */
export function lazyApiClient(base: { baseUrl: string; tokens: TokenStore }, load: () => Promise<ApiClient>): LazyApiClient {
  let real: Promise<ApiClient> | null = null;
  const ready = () => (real ??= load());
  const early = new Map<string, Promise<unknown>>();
  const send = (name: string, args: unknown, o?: unknown) => ready().then((api) => (api.calls as any)[name](args, o));
  const calls = new Proxy({} as ApiClient['calls'], {
    get: (_target, name: string) => (args: unknown, o?: unknown) => {
      const key = keyOf(name, args);
      const answer = early.get(key);
      if (!answer) return send(name, args, o);
      early.delete(key);
      return answer;
    },
  });
  const prefetch = (name: CallName, args?: unknown) => {
    const key = keyOf(name, args);
    if (early.has(key)) return;
    const answer = send(name, args);
    // Nobody may ask (the screen changed): the failure is then nobody's, and the answer is dropped after a while.
    answer.catch(() => {});
    early.set(key, answer);
    setTimeout(() => early.get(key) === answer && early.delete(key), PREFETCH_KEEP_MS);
  };
  const baseUrl = base.baseUrl.replace(/\/+$/, '');
  return {
    baseUrl,
    tokens: base.tokens,
    calls,
    ready,
    prefetch,
    resolve: (url: string) => resolveUrl(baseUrl, url),
    call: (name: any, args: any, o?: any) => ready().then((api) => api.call(name, args, o)),
    logout: () => ready().then((api) => api.logout()),
    putBytes: (...a: Parameters<ApiClient['putBytes']>) => ready().then((api) => api.putBytes(...a)),
    downloadText: (...a: Parameters<ApiClient['downloadText']>) => ready().then((api) => api.downloadText(...a)),
  } as unknown as LazyApiClient;
}
