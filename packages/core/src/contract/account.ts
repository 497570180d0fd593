// Schemas of the account calls (issue 30, steps 3-5): the account as its owner sees it, password and email changes,
// the export of everything the account holds, and deleting the account.
import * as z from 'zod/mini';
import { checkEmail, checkPassword } from '../rules/fields';
import { ACCOUNT_EVENTS_PAGE_MAX, ACCOUNT_MESSAGES, CURRENT_PASSWORD_MAX } from '../rules/account';
import { Epoch, Id } from './entities';
import { OtpCode } from './security';
import { ruled } from './ruled';

/** The password the account has now, asked before a change: only present, never checked against the sign-up rule. */
export const CurrentPassword = z
  .string(ACCOUNT_MESSAGES.passwordRequired)
  .check(z.minLength(1, ACCOUNT_MESSAGES.passwordRequired), z.maxLength(CURRENT_PASSWORD_MAX, ACCOUNT_MESSAGES.passwordWrong));

/** The account as its owner sees it, with the email change waiting for confirmation, if any. */
export const AccountView = z.object({
  stamp: Id,
  email: z.string(),
  username: z.string(),
  createdAt: Epoch,
  /** Whether two-factor sign-in is on (deleting the account then asks for a code too). */
  otp: z.boolean(),
  pendingEmail: z.nullable(z.object({ email: z.string(), expiresAt: Epoch })),
});
export type AccountView = z.infer<typeof AccountView>;
export const AccountResponse = z.object({ account: AccountView });

export const PasswordChangeBody = z.object({ current: CurrentPassword, password: ruled(checkPassword) });
/** How many other sessions the change ended (the caller's own stays). */
export const PasswordChangeResponse = z.object({ ended: z.number() });

export const EmailChangeBody = z.object({ password: CurrentPassword, email: ruled(checkEmail, true) });
export const EmailConfirmBody = z.object({
  token: z.string().check(z.minLength(1, ACCOUNT_MESSAGES.emailLinkInvalid), z.maxLength(4096, ACCOUNT_MESSAGES.emailLinkInvalid)),
});
/** The account's email address now. */
export const EmailConfirmResponse = z.object({ email: z.string() });

/** One row of an export section: the item's own fields (ids, names, times, states), never a secret or a token. */
const ExportRow = z.record(z.string(), z.unknown());
const ExportSection = z.array(ExportRow);
export const AccountExport = z.object({
  format: z.literal('portal-account-export'),
  version: z.literal(1),
  exportedAt: Epoch,
  user: z.object({ stamp: Id, email: z.string(), username: z.string(), createdAt: Epoch, otp: z.boolean() }),
  clients: ExportSection,
  projects: ExportSection,
  uploads: ExportSection,
  files: ExportSection,
  requests: ExportSection,
  models: ExportSection,
  apikeys: ExportSection,
  integrations: ExportSection,
  /** The webhook endpoints of the clients the user owns: URL, events and state, never the signing secret. */
  webhooks: ExportSection,
  audit: ExportSection,
  /** The user's own account-security events (sign-ins from new addresses, password, email and two-factor changes). */
  events: ExportSection,
  /** The sections cut at ACCOUNT_EXPORT_ROWS_MAX rows. */
  truncated: z.array(z.string()),
});
export type AccountExport = z.infer<typeof AccountExport>;

/** One event of the user's own log. */
export const AccountEvent = z.object({ at: Epoch, action: z.string(), target: z.string(), detail: z.string() });
export type AccountEvent = z.infer<typeof AccountEvent>;
export const AccountEventsQuery = z.object({
  limit: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(ACCOUNT_EVENTS_PAGE_MAX))),
  /** The `next` of the page before: events older than it. */
  cursor: z.optional(z.string().check(z.regex(/^[0-9]{1,18}$/, 'cursor must be the next value of an earlier page'))),
});
export const AccountEventsResponse = z.object({ event: z.object({ list: z.array(AccountEvent), next: z.nullable(z.string()) }) });

/** Turning two-factor sign-in off asks the password as well as a code: a session alone never weakens the account. */
export const OtpDisableBody = z.object({ code: OtpCode, password: CurrentPassword });
export const AccountDeleteBody = z.object({ password: CurrentPassword, code: z.optional(OtpCode) });
/** The clients that went with the account (those only this user belonged to). */
export const AccountDeleteResponse = z.object({ ok: z.literal(true), clients: z.array(Id) });
