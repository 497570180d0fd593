// The text rule every door and the server share: names, titles, descriptions and emails hold no control characters
// (C0, DEL, C1) and no bidirectional controls, and emails are compared in one normal form.
import { MESSAGES } from '../messages';

/** The bidi controls: marks (U+200E/F, U+061C), embeddings and overrides (U+202A-202E), isolates (U+2066-2069). */
export const BIDI_CONTROLS = '\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';
/** C0 (U+0000-001F), DEL and C1 (U+007F-009F): tabs and line breaks count too, these are one-line fields. */
export const CONTROLS = '\\u0000-\\u001f\\u007f-\\u009f';
const CONTROL_RE = new RegExp(`[${CONTROLS}${BIDI_CONTROLS}]`);

/** Whether the text holds a character the rule refuses. */
export const hasControlCharacters = (value: string): boolean => CONTROL_RE.test(value);

/** The text rule: null when the text is plain, else the one sentence every door shows. */
export function checkPlainText(value: string | undefined | null): string | null {
  return hasControlCharacters(value ?? '') ? MESSAGES.controlCharacters : null;
}

/**
 * The one form in which emails are compared (sign-up, sign-in, invitations, accepting): trimmed, NFKC, lower case.
 * `\u212Aate@x.org` (Kelvin sign) and `kate@x.org` are the same address. The database compares with the same
 * steps (`lower(normalize(email, NFKC))`), so a look-alike cannot slip between the two.
 */
export const emailKey = (email: string): string => email.trim().normalize('NFKC').toLowerCase();
