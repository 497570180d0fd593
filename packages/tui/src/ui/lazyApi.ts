// An ApiClient whose real implementation (zod schemas, ofetch) loads on the first call or right after the first
// frame, so the terminal UI draws without waiting for it.
import type { ApiClient, ApiClientOptions } from '@portal/core';

export function lazyApi(opts: ApiClientOptions): ApiClient & { ready(): Promise<ApiClient> } {
  let real: Promise<ApiClient> | null = null;
  const ready = () => (real ??= import('../cli/heavy').then((m) => m.nodeApi(opts)));
  const calls = new Proxy({} as ApiClient['calls'], {
    get: (_target, name: string) => (args: unknown, o?: unknown) => ready().then((api) => (api.calls as any)[name](args, o)),
  });
  const base = opts.baseUrl.replace(/\/+$/, '');
  return {
    baseUrl: base,
    tokens: opts.tokens,
    calls,
    ready,
    resolve: (url: string) => (/^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `${base}${url.startsWith('/') ? '' : '/'}${url}`),
    call: (name: any, args: any, o?: any) => ready().then((api) => api.call(name, args, o)),
    putBytes: (...a: Parameters<ApiClient['putBytes']>) => ready().then((api) => api.putBytes(...a)),
    downloadText: (...a: Parameters<ApiClient['downloadText']>) => ready().then((api) => api.downloadText(...a)),
  } as unknown as ApiClient & { ready(): Promise<ApiClient> };
}
