// Schemas of the team calls: members, invitations, roles and the audit log (DESIGN.md's additions).
import * as z from 'zod/mini';
import { AUDIT_PAGE_MAX, ROLES } from '../rules/team';
import { checkEmail } from '../rules/fields';
import { Client, Epoch, Id, User } from './entities';

export const MemberRole = z.enum(ROLES);
export const Member = z.object({ user: User, role: MemberRole, createdAt: Epoch });
export const Invite = z.object({ stamp: Id, email: z.string(), role: MemberRole, createdAt: Epoch, expiresAt: Epoch });
export const AuditEntry = z.object({
  at: Epoch,
  /** Who did it: a user, a client API key (`stamp` is its id), or the operator (`stamp` 'operator'). */
  actor: z.object({ stamp: z.string(), email: z.string() }),
  action: z.string(),
  /** What it was done to: a member's email, a key's id, a quote's id, ... */
  target: z.string(),
  /** A few words more: a name, a role, a plan. */
  detail: z.string(),
});
export type Member = z.infer<typeof Member>;
export type Invite = z.infer<typeof Invite>;
export type AuditEntry = z.infer<typeof AuditEntry>;

const Email = z.string().check(
  z.superRefine((v, ctx) => {
    const message = checkEmail(v);
    if (message) ctx.addIssue({ code: 'custom', message });
  }),
);

export const MemberQuery = z.object({ client: Id });
export const MemberListResponse = z.object({ client: Client, member: z.object({ list: z.array(Member) }) });
export const InviteCreateBody = z.object({ client: Id, email: Email, role: z._default(MemberRole, 'member') });
/** How the server delivers mail: a mail service (SMTP), or its outbox folder and log when none is configured. */
export const MAIL_DELIVERIES = ['smtp', 'outbox'] as const;
export type MailDelivery = (typeof MAIL_DELIVERIES)[number];
export const InviteResponse = z.object({ invite: Invite, delivery: z.optional(z.enum(MAIL_DELIVERIES)) });
export const InviteListResponse = z.object({ client: Client, invite: z.object({ list: z.array(Invite) }) });
export const InviteRemoveBody = z.object({ invite: Id });
export const InviteAcceptBody = z.object({ token: z.string().check(z.minLength(1), z.maxLength(200)) });
export const InviteAcceptResponse = z.object({ client: Client, member: Member });
export const MemberRoleBody = z.object({ client: Id, user: Id, role: MemberRole });
export const MemberResponse = z.object({ member: Member });
export const MemberRemoveBody = z.object({ client: Id, user: Id });
/** The latest time a filter accepts (year 9999): later is not a time. */
export const EPOCH_MAX = 253_402_300_799;
export const AuditQuery = z.object({
  client: Id,
  /** The `next` of the page before: entries older than it (every list's paging: `limit`, `cursor`, `next`). */
  cursor: z.optional(z.string().check(z.regex(/^[0-9]{1,18}$/, 'cursor must be the next value of an earlier page'))),
  /** The audit log's first name for `cursor`, still accepted from clients written against it. */
  before: z.optional(z.string().check(z.regex(/^[0-9]{1,18}$/, 'before must be the next value of an earlier page'))),
  limit: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(AUDIT_PAGE_MAX))),
  /** Only entries of this action (e.g. `member.role`). */
  action: z.optional(z.string().check(z.maxLength(64))),
  /** Only entries by this actor: a user's id or email, or a key's id. */
  actor: z.optional(z.string().check(z.maxLength(320))),
  /** Only entries at or after this time (epoch seconds). */
  from: z.optional(z.coerce.number().check(z.int('from must be a time in epoch seconds'), z.minimum(0), z.maximum(EPOCH_MAX))),
  /** Only entries before this time (epoch seconds). */
  to: z.optional(z.coerce.number().check(z.int('to must be a time in epoch seconds'), z.minimum(0), z.maximum(EPOCH_MAX))),
});
export const AuditResponse = z.object({ audit: z.object({ list: z.array(AuditEntry), next: z.nullable(z.string()) }) });
