// Failed sign-ins, throttled so the throttle cannot be turned against the owner (OWASP's authentication cheat sheet:
// lock out the guesser, not the account). Wrong passwords are counted per account and address: an address that sent
// too many for an account waits, the others do not. The account's count across every address only slows things
// down: once it is over its limit, an address the account never signed in from gets a few attempts, each answered
// after a pause, while the addresses the account knows sign in as before. Counted by the email's normal form whether
// or not an account has it, so the answers tell nothing; each count is one statement, so racing attempts all count.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import { ERROR_CODES, MESSAGES, emailKey } from '@portal/core';
import { HttpError } from '../errors';
import { bumpCounter } from '../ratelimit';
import type { DB } from '../db/schema';

/** Attempts one email may make from one address in the window; a successful sign-in from it starts that count again. */
export const SIGNIN_ADDRESS_LIMIT = 10;
/** Attempts one email may make from every address together in the window before the slow-down begins. */
export const SIGNIN_ACCOUNT_LIMIT = 10;
export const SIGNIN_ACCOUNT_WINDOW_S = 15 * 60;
/** While the account is over its limit: attempts each address it does not know may make, and the pause before each answer. */
export const SIGNIN_SLOW_TRIES = 2;
export const SIGNIN_SLOW_MS = 1000;

/** Bounded: a Basic header may carry kilobytes, no address is longer than 254 characters. */
const emailOf = (email: string) => emailKey(email).slice(0, 256);
const accountKey = (email: string) => `signin-account|${emailOf(email)}`;
const addressKey = (email: string, address: string | null) => `signin-address|${emailOf(email)}|${(address ?? '').slice(0, 64)}`;

export interface SigninAttempt {
  email: string;
  /** The request's address as the server sees it (behind a trusted proxy: the forwarded one). */
  address: string | null;
  /** Whether the account signed in from this address before (false for an email no account has). */
  known: boolean;
  /** Called once per window when a limit trips (the account's or this address's): the owner is told. */
  tripped?: () => void;
}

/**
 * Counts one attempt before the password is checked, refusing it with 429 when this address sent too many for this
 * email, or, while the account is over its limit, when an address it does not know used its few attempts.
 */
export async function countSignin(db: Kysely<DB>, a: SigninAttempt, nowMs = Date.now()): Promise<void> {
  const windowMs = SIGNIN_ACCOUNT_WINDOW_S * 1000;
  const account = await bumpCounter(db, accountKey(a.email), windowMs, nowMs);
  const address = await bumpCounter(db, addressKey(a.email, a.address), windowMs, nowMs);
  const accountCount = Number(account.count);
  const addressCount = Number(address.count);
  if (accountCount === SIGNIN_ACCOUNT_LIMIT + 1 || addressCount === SIGNIN_ADDRESS_LIMIT + 1) a.tripped?.();
  const refuse = () => {
    const waitS = Math.max(1, Math.ceil((Number(address.window_start) + windowMs - nowMs) / 1000));
    return new HttpError(429, ERROR_CODES.rateLimited, MESSAGES.signinLocked(Math.ceil(waitS / 60)), { 'retry-after': String(waitS) });
  };
  if (addressCount > SIGNIN_ADDRESS_LIMIT) throw refuse();
  if (accountCount > SIGNIN_ACCOUNT_LIMIT && !a.known) {
    if (addressCount > SIGNIN_SLOW_TRIES) throw refuse();
    await sleep(SIGNIN_SLOW_MS);
  }
}

/** A successful sign-in: this address's count for the email starts again (the account's runs out with its window). */
export async function clearSignins(db: Kysely<DB>, email: string, address: string | null): Promise<void> {
  await db.deleteFrom('rate_limits').where('key', '=', addressKey(email, address)).execute();
}
