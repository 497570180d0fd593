// The terminal UI's client: core's lazy client over the CLI's node:http client, loaded on the first call or right
// after the first frame, so the terminal UI draws without waiting for it.
import type { ApiClientOptions } from '@portal/core';
import { lazyApiClient, type LazyApiClient } from '@portal/core/client/lazy';

export function lazyApi(opts: ApiClientOptions): LazyApiClient {
  return lazyApiClient(opts, () => import('../cli/heavy').then((m) => m.nodeApi(opts)));
}
