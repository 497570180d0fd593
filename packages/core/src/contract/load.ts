// One call of the route table, its schemas built on first use: a client given `loadCall` as its call source loads only
// the module of the group a call belongs to (calls/<group>.ts), so a command that makes one call does not build every
// schema of the contract (the CLI's client). The group is the reference's (CALL_REFERENCE), so a call is filed once; a
// test checks each group's module holds it. Not in core's index: only a bundle that splits its dynamic imports into
// chunks of their own gains from it, and a one-file esbuild bundle of core broke with it (docs/DECISIONS.md).
import type { CallDef, CallName } from './calls';
import { CALL_REFERENCE, type CallGroup } from './reference';

type Table = Readonly<Record<string, CallDef>>;

/** The module of each group of the reference (several groups may share one). */
export const GROUP_MODULES: Readonly<Record<CallGroup, () => Promise<Table>>> = {
  Probes: () => import('./calls/session').then((m) => m.SESSION_CALLS),
  'Sign-in and session': () => import('./calls/session').then((m) => m.SESSION_CALLS),
  Account: () => import('./calls/account').then((m) => m.ACCOUNT_CALLS),
  'Account security': () => import('./calls/security').then((m) => m.SECURITY_CALLS),
  'API keys': () => import('./calls/keys').then((m) => m.KEY_CALLS),
  Integrations: () => import('./calls/keys').then((m) => m.KEY_CALLS),
  Projects: () => import('./calls/projects').then((m) => m.PROJECT_CALLS),
  Uploads: () => import('./calls/uploads').then((m) => m.UPLOAD_CALLS),
  Models: () => import('./calls/models').then((m) => m.MODEL_CALLS),
  Requests: () => import('./calls/requests').then((m) => m.REQUEST_CALLS),
  'Quotes, billing and usage': () => import('./calls/billing').then((m) => m.BILLING_CALLS),
  Team: () => import('./calls/team').then((m) => m.TEAM_CALLS),
  Webhooks: () => import('./calls/webhooks').then((m) => m.WEBHOOK_CALLS),
};

/**
 * The call's entry of the route table (method, path, auth, schemas), its group's module loaded on first use (the
 * module system keeps it; the client keeps the entries it has found).
 */
export async function loadCall(name: CallName): Promise<CallDef> {
  const def = (await GROUP_MODULES[CALL_REFERENCE[name].group]())[name];
  if (!def) throw new Error(`The contract's module of "${CALL_REFERENCE[name].group}" has no call ${name}`);
  return def;
}
