// Account changes, export and deletion: their texts, limits and the confirmation link's path, shared by every door
// and the server.
import Bowser from 'bowser';
import { SECURITY_MESSAGES } from './security';

/** How long the link that confirms a new email address works. */
export const EMAIL_CONFIRM_TTL_S = 24 * 60 * 60;
/** The web page the confirmation link opens: `${base}${EMAIL_CONFIRM_PATH}?token=...`. */
export const EMAIL_CONFIRM_PATH = '/account/email/confirm';
/** A password as typed to prove it is the account holder (any password the account ever had fits). */
export const CURRENT_PASSWORD_MAX = 1024;
/** Most rows one section of an account export carries; a longer section is cut there and named in `truncated`. */
export const ACCOUNT_EXPORT_ROWS_MAX = 100_000;
/** The sections of an account export, in the order the file lists them. */
export const ACCOUNT_EXPORT_SECTIONS = [
  'clients',
  'projects',
  'uploads',
  'files',
  'requests',
  'models',
  'apikeys',
  'integrations',
  'webhooks',
  'audit',
  'events',
] as const;
export type AccountExportSection = (typeof ACCOUNT_EXPORT_SECTIONS)[number];

/** Account-security events: in the user's own log (their account page and export), never in a client's audit log. */
export const ACCOUNT_EVENTS = {
  signin: 'Signed in',
  'signin.new-address': 'Signed in from a new address',
  'otp.on': 'Turned two-factor sign-in on',
  'otp.off': 'Turned two-factor sign-in off',
  'password.change': 'Changed the password',
  'email.change.start': 'Asked to change the email address',
  'email.change': 'Changed the email address',
} as const;
export type AccountEventAction = keyof typeof ACCOUNT_EVENTS;

/** A browser's name and its system from its user agent ("Firefox on Linux"), or '' when it names neither. */
export function browserName(userAgent: string): string {
  if (!userAgent.trim()) return '';
  const { browser, os } = Bowser.parse(userAgent);
  const name = browser.name ?? '';
  const system = os.name ?? '';
  return name && system ? `${name} on ${system}` : name || system;
}

/**
 * One event of the user's own log as a plain sentence: "Signed in from a new address (203.0.113.7, Firefox on
 * Linux)". Its parts are the server's text as stored: a door that prints to a terminal still escapes the sentence.
 */
export function accountEventLabel(e: { action: string; target: string; detail: string }): string {
  const base: string = (ACCOUNT_EVENTS as Record<string, string>)[e.action] ?? e.action;
  const inParens = (parts: string[]) => {
    const shown = parts.filter((p) => p.trim() !== '');
    return shown.length ? `${base} (${shown.join(', ')})` : base;
  };
  switch (e.action as AccountEventAction) {
    case 'signin':
    case 'signin.new-address':
      return inParens([e.target, browserName(e.detail) || e.detail]);
    case 'email.change.start':
      return e.detail ? `${base} to ${e.detail}` : base;
    case 'email.change':
      return e.target && e.detail ? `${base} from ${e.target} to ${e.detail}` : base;
    case 'password.change':
      return inParens([e.detail]);
    default:
      return base;
  }
}
/** Events a page of the user's own log carries at most. */
export const ACCOUNT_EVENTS_PAGE_MAX = 200;
/** Events a page of the account page shows, and `portal account events` prints by default. */
export const ACCOUNT_EVENTS_PAGE = 20;

const list = (names: string[]): string =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;

export const ACCOUNT_MESSAGES = {
  noEvents: 'No security events recorded',
  loadEvents: 'Failed to load your security events. Please try again.',
  passwordRequired: 'Enter your current password.',
  passwordWrong: 'Your current password is not right.',
  passwordSame: 'Choose a new password, not the one you have now.',
  passwordChanged: 'Your password is changed. Every other session of your account is signed out.',
  emailSame: 'That is already your email address.',
  emailTaken: 'An account with this email address already exists.',
  emailSent: (email: string) => `We sent a confirmation link to ${email}. Your email address changes when you open it (within 24 hours).`,
  emailCancelled: 'The email change is cancelled; your email address stays as it is.',
  emailNothingPending: 'No email change is waiting for confirmation.',
  emailLinkInvalid: 'This confirmation link has expired or was already used. Ask for a new one on your account page.',
  emailConfirmed: (email: string) => `Your email address is now ${email}.`,
  exported: (file: string) => `Your account's data is saved in ${file}.`,
  exportFailed: 'The export could not be made. Please try again.',
  deleteCodeRequired: SECURITY_MESSAGES.otpRequired,
  lastOwner: (clients: string[]) =>
    `You are the last owner of ${list(clients)}, which ${clients.length > 1 ? 'have' : 'has'} other members. ` +
    'Make another member an owner, or remove the other members, then delete your account.',
  deleteConfirm:
    'Delete your account? You are signed out everywhere, and the clients only you belong to are removed with their projects, uploads, requests and keys. This cannot be undone.',
  deleted: 'Your account is deleted.',
  deleteNotConfirmed: 'Nothing was deleted: confirm with --yes to delete the account without a prompt.',
} as const;

/** null when a current password was typed, else what to do. */
export const checkCurrentPassword = (v: string | undefined | null): string | null =>
  v ? (v.length > CURRENT_PASSWORD_MAX ? ACCOUNT_MESSAGES.passwordWrong : null) : ACCOUNT_MESSAGES.passwordRequired;

/** The file name an account export is saved under: the account's username and the day, e.g. portal-kate-2026-11-26.json. */
export function accountExportName(username: string, at: number): string {
  const day = new Date(at * 1000).toISOString().slice(0, 10);
  const safe = username.replace(/[^A-Za-z0-9_-]/g, '') || 'account';
  return `portal-${safe}-${day}.json`;
}
