// The API client of the `portal` program, in a chunk of its own: core's client with its calls over node:http (without
// loading Node's undici-backed fetch), finding each call with `loadCall`, which builds a group's schemas on its first
// call (core's contract/load.ts): `projects list` builds the projects group's schemas and no other.
import { ApiClient, type ApiClientOptions, type CallSource } from '@portal/core';
import { loadCall } from '@portal/core/contract/load';
import { plainHttp } from '@portal/core/node';

/** What a door of the program gives its client: where, with which token, how long to wait (the rest is the program's). */
export type NodeApiOptions = Omit<ApiClientOptions, 'calls' | 'http'>;

/** A command's client: each call's group loaded on its first use, unless the caller gives the whole table. */
export const nodeApi = (opts: NodeApiOptions, calls: CallSource = loadCall) => new ApiClient({ http: plainHttp, calls, ...opts });
