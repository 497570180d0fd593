// The contract's calls: what every group shares (calls/common.ts), and the types of the route table. The groups
// (calls/<group>.ts: each group's schemas and its entries of the table) and the whole table (CALLS) are in table.ts,
// which core's index does not re-export: a door that makes one call builds only that call's group (load.ts), even in
// a one-file bundle, where everything the index reaches is evaluated at start.
import type * as z from 'zod/mini';
import type { CallDef } from './calls/common';
import type { CALLS } from './table';

// Its schemas are reached through table.ts (with the groups that use them); the index carries its types.
export type { Auth, CallDef, PageQuery } from './calls/common';

export type CallName = keyof typeof CALLS;
/** Where a client finds a call's entry of the route table: this whole table, or a loader of one group (load.ts). */
export type CallSource = (name: CallName) => CallDef | Promise<CallDef>;
export type CallQuery<N extends CallName> = (typeof CALLS)[N] extends { query: infer Q extends z.ZodMiniType } ? z.input<Q> : undefined;
export type CallBody<N extends CallName> = (typeof CALLS)[N] extends { body: infer B extends z.ZodMiniType } ? z.input<B> : undefined;
export type CallResponse<N extends CallName> = z.output<(typeof CALLS)[N]['response']>;

/** Where the storage endpoint lives: the signed URL of an upload points here (local store). */
export const STORAGE_PATH_PREFIX = '/api/storage/';
/** Where the installer packages are served (`pip install <base>/api/pack/<file>`). */
export const PACK_PATH_PREFIX = '/api/pack/';
