// Request and response schemas of every call of SPEC section 7, and the route table that names them. Each group of
// calls is a module of its own (calls/<group>.ts: its schemas and its entries of the table), so a door that makes
// one call builds only that group's schemas (load.ts); CALLS here is the whole table, for the server, the reference
// and the tests.
import type * as z from 'zod/mini';
import type { CallDef } from './calls/common';
import { ACCOUNT_CALLS } from './calls/account';
import { BILLING_CALLS } from './calls/billing';
import { KEY_CALLS } from './calls/keys';
import { MODEL_CALLS } from './calls/models';
import { PROJECT_CALLS } from './calls/projects';
import { REQUEST_CALLS } from './calls/requests';
import { SECURITY_CALLS } from './calls/security';
import { SESSION_CALLS } from './calls/session';
import { TEAM_CALLS } from './calls/team';
import { UPLOAD_CALLS } from './calls/uploads';
import { WEBHOOK_CALLS } from './calls/webhooks';

export * from './calls/common';
export * from './calls/account';
export * from './calls/billing';
export * from './calls/keys';
export * from './calls/models';
export * from './calls/projects';
export * from './calls/requests';
export * from './calls/security';
export * from './calls/session';
export * from './calls/team';
export * from './calls/uploads';
export * from './calls/webhooks';

// ---- the route table ----
export const CALLS = {
  ...SESSION_CALLS,
  ...ACCOUNT_CALLS,
  ...SECURITY_CALLS,
  ...KEY_CALLS,
  ...PROJECT_CALLS,
  ...UPLOAD_CALLS,
  ...MODEL_CALLS,
  ...REQUEST_CALLS,
  ...BILLING_CALLS,
  ...TEAM_CALLS,
  ...WEBHOOK_CALLS,
} as const;

export type CallName = keyof typeof CALLS;
/** Where a client finds a call's entry of the route table: this whole table, or a loader of one group (load.ts). */
export type CallSource = (name: CallName) => CallDef | Promise<CallDef>;
/** The whole table as a client's call source (every schema built when the contract loads). */
export const callTable: CallSource = (name) => CALLS[name];
export type CallQuery<N extends CallName> = (typeof CALLS)[N] extends { query: infer Q extends z.ZodMiniType } ? z.input<Q> : undefined;
export type CallBody<N extends CallName> = (typeof CALLS)[N] extends { body: infer B extends z.ZodMiniType } ? z.input<B> : undefined;
export type CallResponse<N extends CallName> = z.output<(typeof CALLS)[N]['response']>;

/** Where the storage endpoint lives: the signed URL of an upload points here (local store). */
export const STORAGE_PATH_PREFIX = '/api/storage/';
/** Where the installer packages are served (`pip install <base>/api/pack/<file>`). */
export const PACK_PATH_PREFIX = '/api/pack/';
