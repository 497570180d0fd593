// What the API reference says of each call beyond its schemas: a one-line summary, its group, and whether SPEC
// section 7 names it (the rest are additions). Typed by CALLS, so a call added to the contract without a line here
// does not compile.
import type { CallName } from './calls';

export const CALL_GROUPS = [
  'Sign-in and session',
  'Account',
  'Account security',
  'API keys',
  'Integrations',
  'Projects',
  'Uploads',
  'Models',
  'Requests',
  'Quotes, billing and usage',
  'Team',
  'Probes',
] as const;
export type CallGroup = (typeof CALL_GROUPS)[number];

export interface CallReference {
  summary: string;
  group: CallGroup;
  /** SPEC section 7 names this call; without it the call is one of the additions. */
  spec?: true;
}

export const CALL_REFERENCE: { readonly [N in CallName]: CallReference } = {
  health: { summary: 'Whether the process is up (liveness)', group: 'Probes' },
  ready: { summary: 'Whether the process should get traffic: database, storage and worker checks', group: 'Probes' },
  login: {
    summary: 'Sign in with the email and password (Basic auth); answers a session or a two-factor challenge',
    group: 'Sign-in and session',
    spec: true,
  },
  signup: { summary: 'Create an account and its company, and sign in', group: 'Sign-in and session', spec: true },
  resetStart: { summary: 'Mail a password reset link to the address, if it has an account', group: 'Sign-in and session', spec: true },
  resetFinish: { summary: "Set a new password with the reset link's token", group: 'Sign-in and session', spec: true },
  refresh: { summary: 'A fresh session token for the current session', group: 'Sign-in and session', spec: true },
  logout: { summary: 'End the current session', group: 'Sign-in and session' },
  permissions: { summary: "The caller's permission entries", group: 'Sign-in and session', spec: true },
  loginOtp: { summary: 'The second step of a two-factor sign-in: the challenge and a code', group: 'Sign-in and session' },

  accountShow: { summary: 'The signed-in account: email, username, pending email change', group: 'Account' },
  passwordChange: { summary: 'Change the password; every other session ends', group: 'Account' },
  emailChange: { summary: 'Start an email change: a confirmation link goes to the new address', group: 'Account' },
  emailChangeCancel: { summary: 'Cancel a pending email change', group: 'Account' },
  emailConfirm: { summary: "Confirm an email change with the link's token", group: 'Account' },
  accountExport: { summary: 'Everything the account holds, as one JSON file (no secrets or tokens)', group: 'Account' },
  accountDelete: { summary: 'Delete the account', group: 'Account' },

  otpStatus: { summary: 'Whether two-factor sign-in is on', group: 'Account security' },
  otpSetup: { summary: 'Start two-factor sign-in: a secret and its otpauth URL', group: 'Account security' },
  otpEnable: { summary: 'Turn two-factor sign-in on with a first code; answers recovery codes', group: 'Account security' },
  otpDisable: { summary: 'Turn two-factor sign-in off with a code', group: 'Account security' },
  sessionList: { summary: "The account's sessions: device, address, last use", group: 'Account security' },
  sessionEnd: { summary: 'End one session', group: 'Account security' },
  sessionEndOthers: { summary: 'End every session but this one', group: 'Account security' },

  apikeyList: { summary: "A client's API keys", group: 'API keys', spec: true },
  apikeyCreate: { summary: 'Create an API key (its token is shown once)', group: 'API keys', spec: true },
  apikeyRename: { summary: 'Rename an API key', group: 'API keys', spec: true },
  apikeyRemove: { summary: 'Remove an API key', group: 'API keys', spec: true },

  integrationList: { summary: "A client's integration keys (outside services' tokens)", group: 'Integrations', spec: true },
  integrationCreate: { summary: "Store an outside service's token", group: 'Integrations', spec: true },
  integrationRename: { summary: 'Rename an integration key', group: 'Integrations', spec: true },
  integrationRemove: { summary: 'Remove an integration key', group: 'Integrations', spec: true },

  bucketList: { summary: "A client's projects", group: 'Projects', spec: true },
  bucketCreate: { summary: 'Create a project', group: 'Projects', spec: true },
  bucketRename: { summary: 'Rename a project', group: 'Projects', spec: true },
  bucketRemove: { summary: 'Remove a project', group: 'Projects', spec: true },

  rendList: { summary: "A project's uploads", group: 'Uploads', spec: true },
  rendCreate: { summary: 'Create an upload (a group of files) in a project', group: 'Uploads', spec: true },
  rendFinish: { summary: "Finish an upload once its files' bytes are sent; analysis follows", group: 'Uploads', spec: true },
  rendRename: { summary: 'Rename an upload', group: 'Uploads', spec: true },
  rendRemove: { summary: 'Remove an upload', group: 'Uploads', spec: true },
  uploadRegister: { summary: 'Register a file of an upload: answers the signed URL to PUT its bytes to', group: 'Uploads', spec: true },
  uploadFinish: { summary: 'Finish a file once its bytes are sent', group: 'Uploads', spec: true },
  uploadPreview: { summary: "The first rows and the columns' statistics of an analysed file", group: 'Uploads' },

  clientModelList: { summary: "A project's fitted models", group: 'Models', spec: true },
  generalModelList: { summary: 'The general models every client may use', group: 'Models', spec: true },
  modelRename: { summary: 'Rename a model', group: 'Models', spec: true },
  modelRemove: { summary: 'Remove a model', group: 'Models', spec: true },

  runList: { summary: "A project's requests (fit, generate, shrink)", group: 'Requests', spec: true },
  runRename: { summary: 'Rename a request', group: 'Requests', spec: true },
  runRemove: { summary: 'Remove a request', group: 'Requests', spec: true },
  runStatus: { summary: "A request's record and its result's download URL", group: 'Requests', spec: true },
  runEvents: { summary: "A request's events after a given one (its progress)", group: 'Requests' },
  runRerun: { summary: 'Run a request again with the same inputs', group: 'Requests' },
  runProjection: { summary: "A 2-D projection of a generate request's vectors", group: 'Requests' },
  pileCreate: { summary: "Create a request's parameters (a pile): FitModel or ShrinkService", group: 'Requests', spec: true },
  runCreate: { summary: 'Create a fit or generate request', group: 'Requests', spec: true },
  shrinkCreate: { summary: 'Ask for a shrink request: answers its quote', group: 'Requests', spec: true },

  quoteStatus: { summary: 'A quote and the request it became, if any', group: 'Quotes, billing and usage', spec: true },
  billingStatus: { summary: "A client's billing: plan, payment method, what is owed", group: 'Quotes, billing and usage', spec: true },
  clientUsage: { summary: "A client's usage per day and per project, and its quotes", group: 'Quotes, billing and usage' },

  memberList: { summary: "A client's members and their roles", group: 'Team' },
  inviteCreate: { summary: 'Invite someone by email to a client, with a role', group: 'Team' },
  inviteList: { summary: "A client's pending invitations", group: 'Team' },
  inviteRemove: { summary: 'Withdraw an invitation', group: 'Team' },
  inviteAccept: { summary: "Accept an invitation with its link's token", group: 'Team' },
  memberRole: { summary: "Change a member's role", group: 'Team' },
  memberRemove: { summary: 'Remove a member from a client', group: 'Team' },
  audit: { summary: "A client's audit log, newest first", group: 'Team' },
};
