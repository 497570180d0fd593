// The checks of one field each (SPEC section 5): null when the value is fine, else SPEC's message. Kept apart from the
// form rules so the contract's schemas can use them without reaching the rest of the rules.
import { MESSAGES } from '../messages';
import {
  COMPANY_MAX,
  COMPANY_MIN,
  DESCRIPTION_MAX,
  INTEGRATION_TOKEN_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN,
  TITLE_MAX,
  USERNAME_MAX,
  USERNAME_MIN,
} from '../limits';
import { checkPlainText } from './text';

export type RuleResult = string | null;

/** Titles (request, project, key, model, upload, rename): 1-60 characters after trimming. */
export function checkTitle(value: string | undefined | null, mode: 'create' | 'rename' = 'create'): RuleResult {
  const n = (value ?? '').trim().length;
  if (n >= 1 && n <= TITLE_MAX) return checkPlainText(value);
  return mode === 'create' ? MESSAGES.titleCreate : MESSAGES.titleRename;
}

export function checkIntegrationToken(value: string | undefined | null): RuleResult {
  const n = (value ?? '').length;
  return n >= 1 && n <= INTEGRATION_TOKEN_MAX ? null : MESSAGES.integrationToken;
}

export function checkDescription(value: string | undefined | null): RuleResult {
  return (value ?? '').length <= DESCRIPTION_MAX ? checkPlainText(value) : MESSAGES.description;
}

// A practical email pattern: something@something.tld, no spaces, one @.
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export function checkEmail(value: string | undefined | null): RuleResult {
  const v = (value ?? '').trim();
  return v.length <= 254 && EMAIL_RE.test(v) ? checkPlainText(v) : MESSAGES.email;
}

const USERNAME_RE = new RegExp(`^[A-Za-z0-9_-]{${USERNAME_MIN},${USERNAME_MAX}}$`);
/**
 * The rules of the fields people get wrong, shown under the field before anything is sent (SPEC's messages stay the
 * errors): the same limits as checkUsername, checkCompanyName and checkPassword.
 */
export const FIELD_HINTS = {
  username: '5-30 letters, numbers, dashes or underscores.',
  companyName: '5-50 characters.',
  password: '8-64 characters, with an uppercase and a lowercase letter, a number and a special character.',
} as const;

export function checkUsername(value: string | undefined | null): RuleResult {
  return USERNAME_RE.test(value ?? '') ? null : MESSAGES.username;
}

export function checkCompanyName(value: string | undefined | null): RuleResult {
  const n = (value ?? '').trim().length;
  return n >= COMPANY_MIN && n <= COMPANY_MAX ? checkPlainText(value) : MESSAGES.companyName;
}

export function checkPassword(value: string | undefined | null): RuleResult {
  const v = value ?? '';
  const ok =
    v.length >= PASSWORD_MIN && v.length <= PASSWORD_MAX && /[A-Z]/.test(v) && /[a-z]/.test(v) && /[0-9]/.test(v) && /[^A-Za-z0-9]/.test(v);
  return ok ? null : MESSAGES.password;
}

export function checkPasswordMatch(password: string, confirmation: string): RuleResult {
  return password === confirmation ? null : MESSAGES.passwordMismatch;
}
