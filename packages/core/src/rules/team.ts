// Team rules (members, invitations, roles, the audit log): one place for what owners and members may do, used by the
// server's checks, the hooks, the terminal UI and the CLI alike.

export const ROLES = ['owner', 'member'] as const;
export type Role = (typeof ROLES)[number];

/** Days an invitation link stays good; it works once. */
export const INVITE_DAYS = 7;
/** Days the audit log is kept at least (older rows are deleted by housekeeping). */
export const AUDIT_RETENTION_DAYS = 400;
/** Rows on one page of the audit log, and the most one request may ask for. */
export const AUDIT_PAGE = 50;
export const AUDIT_PAGE_MAX = 200;

export const TEAM_MESSAGES = {
  ownersOnly: 'Only owners of this client can manage its members and invitations.',
  auditOwnersOnly: 'Only owners of this client can read its audit log.',
  alreadyMember: (email: string) => `${email} is already a member of this client.`,
  lastOwnerLeave: 'You are the last owner of this client: make another member an owner before you leave.',
  lastOwnerDemote: 'A client needs at least one owner: make another member an owner first.',
  inviteUsed: 'This invitation has expired, was withdrawn or was already used. Ask an owner of the client for a new one.',
  /** The audit detail of an invitation withdrawn with its sender's right to invite. */
  senderNoLongerOwner: 'its sender is no longer an owner',
  inviteOtherEmail: (email: string) => `This invitation was sent to ${email}: sign in with that address to accept it.`,
  memberNotFound: 'Member not found',
  inviteNotFound: 'Invitation not found',
  invited: (email: string) => `Invitation sent to ${email}.`,
  invitedToOutbox: (email: string) =>
    `This server has no mail service (SMTP_URL), so the invitation to ${email} was written to its outbox instead: the outbox folder in the server's DATA_DIR, and the server's log. Send its link to ${email} yourself.`,
  withdrawn: 'Invitation withdrawn.',
  roleChanged: (email: string, role: Role) => `${email} is now ${role === 'owner' ? 'an owner' : 'a member'}.`,
  removed: (email: string) => `${email} was removed from the client.`,
  left: 'You left the client.',
  joined: (client: string) => `You joined ${client}.`,
  noMembers: 'No Members Found',
  noInvites: 'No pending invitations',
  noAudit: 'No activity recorded',
  loadMembers: 'Failed to load members. Please try again.',
  loadAudit: 'Failed to load the audit log. Please try again.',
  confirmRemove: (email: string) => `Remove ${email} from this client? They lose access at once.`,
  confirmLeave: (client: string) => `Leave ${client}? You lose access at once.`,
} as const;

/** What an owner is told once an invitation is made: sent, or (a server without a mail service) where it was written. */
export const inviteNotice = (email: string, delivery: 'smtp' | 'outbox' | undefined): string =>
  delivery === 'outbox' ? TEAM_MESSAGES.invitedToOutbox(email) : TEAM_MESSAGES.invited(email);

/**
 * Every action the audit log records, with the label the doors show and filter by. Each noun's create, rename and
 * remove is `noun.create|rename|remove` in the product's words (a restore, the remove call's Undo, is `noun.restore`).
 * A member's sign-ins are not here: they are the member's own account events (ACCOUNT_EVENTS), which owners never read.
 */
export const AUDIT_ACTIONS = {
  'member.invite': 'Invited a member',
  'member.invite.withdraw': 'Withdrew an invitation',
  'member.join': 'Joined',
  'member.role': 'Changed a role',
  'member.remove': 'Removed a member',
  'member.leave': 'Left',
  'member.grant': 'Operator granted access',
  'member.revoke': 'Operator revoked access',
  'apikey.create': 'Created an API key',
  'apikey.rename': 'Renamed an API key',
  'apikey.remove': 'Removed an API key',
  'integration.create': 'Created an integration key',
  'integration.rename': 'Renamed an integration key',
  'integration.remove': 'Removed an integration key',
  'quote.create': 'Created a quote',
  'quote.pay': 'Paid a quote',
  'client.plan': 'Operator changed the plan',
  'client.choice': 'Operator changed the choice',
  'project.create': 'Created a project',
  'project.rename': 'Renamed a project',
  'project.remove': 'Removed a project',
  'project.restore': 'Restored a project',
  'upload.create': 'Created an upload',
  'upload.rename': 'Renamed an upload',
  'upload.remove': 'Removed an upload',
  'upload.restore': 'Restored an upload',
  'request.create': 'Created a request',
  'request.rename': 'Renamed a request',
  'request.remove': 'Removed a request',
  'request.restore': 'Restored a request',
  'model.create': 'Created a model',
  'model.rename': 'Renamed a model',
  'model.remove': 'Removed a model',
  'model.restore': 'Restored a model',
  'webhook.create': 'Added a webhook endpoint',
  'webhook.update': 'Changed a webhook endpoint',
  'webhook.pause': 'Paused a webhook endpoint',
  'webhook.resume': 'Resumed a webhook endpoint',
  'webhook.rotate': "Rotated a webhook endpoint's secret",
  'webhook.remove': 'Removed a webhook endpoint',
  'webhook.test': 'Sent a test event to a webhook endpoint',
  'webhook.redeliver': 'Sent a webhook delivery again',
  'webhook.disable': 'The portal paused a failing webhook endpoint',
  // A member whose account is deleted left every client (their other account events are in their own log).
  'account.delete': 'Deleted the account',
} as const;
export type AuditAction = keyof typeof AUDIT_ACTIONS;
export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as AuditAction[];
export const auditActionLabel = (action: string) => (AUDIT_ACTIONS as Record<string, string>)[action] ?? action;

export interface TeamMember {
  user: { stamp: string; email: string };
  role: Role;
}

const owners = (members: readonly TeamMember[]) => members.filter((m) => m.role === 'owner').length;

/** Owners invite, withdraw invitations, change roles and remove others. */
export const canManageMembers = (role: Role | null | undefined) => role === 'owner';
/** Owners read the audit log. */
export const canReadAudit = (role: Role | null | undefined) => role === 'owner';

/** Why `me` cannot leave, or null when they may (the last owner stays). */
export function leaveBlocked(members: readonly TeamMember[], me: string): string | null {
  const mine = members.find((m) => m.user.stamp === me);
  return mine?.role === 'owner' && owners(members) <= 1 ? TEAM_MESSAGES.lastOwnerLeave : null;
}
export const canLeave = (members: readonly TeamMember[], me: string) => leaveBlocked(members, me) === null;

/** Why `actor` cannot give `target` this role, or null when they may. */
export function roleChangeBlocked(
  members: readonly TeamMember[],
  actorRole: Role | null | undefined,
  target: string,
  role: Role,
): string | null {
  if (!canManageMembers(actorRole)) return TEAM_MESSAGES.ownersOnly;
  const t = members.find((m) => m.user.stamp === target);
  if (!t) return TEAM_MESSAGES.memberNotFound;
  if (t.role === 'owner' && role !== 'owner' && owners(members) <= 1) return TEAM_MESSAGES.lastOwnerDemote;
  return null;
}

/** Why `actor` cannot remove `target` (themselves: leaving), or null when they may. */
export function removeBlocked(
  members: readonly TeamMember[],
  actor: string,
  actorRole: Role | null | undefined,
  target: string,
): string | null {
  if (target === actor) return leaveBlocked(members, actor);
  if (!canManageMembers(actorRole)) return TEAM_MESSAGES.ownersOnly;
  if (!members.some((m) => m.user.stamp === target)) return TEAM_MESSAGES.memberNotFound;
  return null;
}

/** Where to go after signing in or up: `next` when it is a path of this portal (never another site), else My Account. */
export function returnTo(next: string | null | undefined, fallback = '/account'): string {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : fallback;
}
/** The invitation page for a token, and the sign-in and sign-up links that come back to it. */
export const invitePath = (token: string) => `/invite?token=${encodeURIComponent(token)}`;
export const signInThen = (path: string) => `/?next=${encodeURIComponent(path)}`;
export const signUpThen = (path: string) => `/signup?next=${encodeURIComponent(path)}`;
