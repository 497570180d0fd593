// The terminal UI's client: core's lazy client over the CLI's node:http client, loaded on the first call or right
// after the first frame, so the terminal UI draws without waiting for it. The UI's screens make calls of every group,
// so it loads the whole route table with the client, once, rather than a group at a time as a command does.
import type { NodeApiOptions } from '../cli/client';
import { lazyApiClient, type LazyApiClient } from '@portal/core/client/lazy';

export function lazyApi(opts: NodeApiOptions): LazyApiClient {
  return lazyApiClient(opts, () =>
    Promise.all([import('../cli/client'), import('@portal/core/contract/table')]).then(([client, contract]) =>
      client.nodeApi(opts, contract.callTable),
    ),
  );
}
