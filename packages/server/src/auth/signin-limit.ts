// Failed sign-ins counted per account as well as per address: a guesser spread over many addresses still meets a
// limit. Counted by the email's normal form whether or not an account has it, so the answer tells nothing.
import { sql, type Kysely } from 'kysely';
import { ERROR_CODES, MESSAGES, emailKey } from '@portal/core';
import { HttpError } from '../errors';
import type { DB } from '../db/schema';

/** Sign-in attempts one email may make in the window; a successful sign-in starts the count again. */
export const SIGNIN_ACCOUNT_LIMIT = 10;
export const SIGNIN_ACCOUNT_WINDOW_S = 15 * 60;

/** Bounded: a Basic header may carry kilobytes, no address is longer than 254 characters. */
const keyOf = (email: string) => `signin-account|${emailKey(email).slice(0, 256)}`;

/**
 * Counts one attempt for this email before the password is checked (so attempts racing each other are counted too),
 * and refuses it with 429 once the window holds more than the limit, the same for every email.
 */
export async function countSignin(db: Kysely<DB>, email: string, nowMs = Date.now()): Promise<void> {
  const windowMs = SIGNIN_ACCOUNT_WINDOW_S * 1000;
  const r = await sql<{ count: number; window_start: number }>`
    insert into rate_limits (key, window_start, count) values (${keyOf(email)}, ${nowMs}, 1)
    on conflict (key) do update set
      count = case when rate_limits.window_start + ${windowMs} <= ${nowMs} then 1 else rate_limits.count + 1 end,
      window_start = case when rate_limits.window_start + ${windowMs} <= ${nowMs} then ${nowMs} else rate_limits.window_start end
    returning count, window_start`.execute(db);
  const row = r.rows[0];
  if (Number(row.count) <= SIGNIN_ACCOUNT_LIMIT) return;
  const waitS = Math.max(1, Math.ceil((Number(row.window_start) + windowMs - nowMs) / 1000));
  throw new HttpError(429, ERROR_CODES.rateLimited, MESSAGES.signinLocked(Math.ceil(waitS / 60)), { 'retry-after': String(waitS) });
}

/** A successful sign-in: the email's count starts again. */
export async function clearSignins(db: Kysely<DB>, email: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('key', '=', keyOf(email)).execute();
}
