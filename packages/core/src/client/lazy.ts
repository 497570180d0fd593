// An ApiClient whose real implementation (zod schemas, ofetch) loads on the first call or when `ready()` is called,
// so a door draws its first screen without waiting for it. Only types come from the client module: importing this
// file loads no schema.
import type { ApiClient } from './api';
import type { TokenStore } from './token';
import { resolveUrl } from './url';

export type LazyApiClient = ApiClient & { ready(): Promise<ApiClient> };

/** `load` makes the real client (once); every method waits for it, except what needs no schema. */
export function lazyApiClient(base: { baseUrl: string; tokens: TokenStore }, load: () => Promise<ApiClient>): LazyApiClient {
  let real: Promise<ApiClient> | null = null;
  const ready = () => (real ??= load());
  const calls = new Proxy({} as ApiClient['calls'], {
    get: (_target, name: string) => (args: unknown, o?: unknown) => ready().then((api) => (api.calls as any)[name](args, o)),
  });
  const baseUrl = base.baseUrl.replace(/\/+$/, '');
  return {
    baseUrl,
    tokens: base.tokens,
    calls,
    ready,
    resolve: (url: string) => resolveUrl(baseUrl, url),
    call: (name: any, args: any, o?: any) => ready().then((api) => api.call(name, args, o)),
    logout: () => ready().then((api) => api.logout()),
    putBytes: (...a: Parameters<ApiClient['putBytes']>) => ready().then((api) => api.putBytes(...a)),
    downloadText: (...a: Parameters<ApiClient['downloadText']>) => ready().then((api) => api.downloadText(...a)),
  } as unknown as LazyApiClient;
}
