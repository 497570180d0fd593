// The whole route table (CALLS) and every group's schemas, for the server, the OpenAPI document, the web, the terminal
// UI and the tests. Not in core's index: a door that makes a few calls loads their groups with load.ts, and its
// bundle must not reach every group through the index (see calls.ts).
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
import type { CallDef } from './calls/common';

// The contract's schemas: the entities, what the groups share, and each group's own. Core's index carries only their
// types (contract/index.ts), so a bundle that evaluates the index at start (each module's build of the CLI) builds
// none of them until a call's group is loaded.
export * from './entities';
export * from './calls/common';
export * from './team';
export * from './preview';
export * from './projection';
export * from './security';
export * from './account';
export * from './webhooks';

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

/** The whole table as a client's call source (every schema built when the contract loads). */
export const callTable = (name: keyof typeof CALLS): CallDef => CALLS[name];
