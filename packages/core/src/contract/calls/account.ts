// The signed-in user's account: changes, export, deletion and own events: their schemas and their calls of the route table (one module of calls.ts, loaded on its own by the
// API client when a door first makes one of them).
import {
  AccountDeleteBody,
  AccountDeleteResponse,
  AccountEventsQuery,
  AccountEventsResponse,
  AccountExport,
  AccountResponse,
  EmailChangeBody,
  EmailConfirmBody,
  EmailConfirmResponse,
  PasswordChangeBody,
  PasswordChangeResponse,
} from '../account';
import { call } from './common';

// ---- the calls ----
export const ACCOUNT_CALLS = {
  accountShow: call({ method: 'GET', path: '/api/user/account', response: AccountResponse }),
  // The user's own account-security events, newest first, a page at a time (never in a client's audit log).
  accountEvents: call({ method: 'GET', path: '/api/user/account/events', query: AccountEventsQuery, response: AccountEventsResponse }),
  // The current password and a new one by the sign-up rule; every other session of the account ends.
  passwordChange: call({ method: 'POST', path: '/api/user/password/change', body: PasswordChangeBody, response: PasswordChangeResponse }),
  // Mails a confirmation link to the new address (and a notice to the old one); the address changes on emailConfirm.
  emailChange: call({ method: 'POST', path: '/api/user/email/change', body: EmailChangeBody, response: AccountResponse }),
  emailChangeCancel: call({ method: 'POST', path: '/api/user/email/cancel', response: AccountResponse }),
  // The link's token alone (the link may be opened signed out, on another device): it proves the new address.
  emailConfirm: call({
    method: 'POST',
    path: '/api/user/email/confirm',
    auth: 'none',
    body: EmailConfirmBody,
    response: EmailConfirmResponse,
  }),
  // Everything the account holds, as one JSON file (an attachment); secrets and tokens never.
  accountExport: call({ method: 'GET', path: '/api/user/export', response: AccountExport }),
  accountDelete: call({ method: 'POST', path: '/api/user/delete', body: AccountDeleteBody, response: AccountDeleteResponse }),
} as const;
