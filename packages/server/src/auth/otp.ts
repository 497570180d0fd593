// Two-factor sign-in (TOTP, RFC 6238, by otplib): secrets encrypted at rest like integration tokens, recovery codes
// kept as salted scrypt hashes and used once, codes never accepted twice, and authenticator codes counted per account
// in the database (rate_limits), so every API process refuses the same guesses. Past the limit the account slows
// down (one authenticator code per OTP_SLOW_S) rather than shutting, and a recovery code (50 random bits, not worth
// guessing) is always looked at, so a guesser cannot keep the owner out.
import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import { generateSecret, generateURI, verify } from 'otplib';
import { OTP_FAILURE_WINDOW_S, OTP_MAX_FAILURES, OTP_SLOW_S, RECOVERY_CODE_COUNT, isTotpCode, normalOtp } from '@portal/core';
import type { DB } from '../db/schema';
import { now } from '../ids';
import { bumpCounter } from '../ratelimit';
import { hashPassword, sha256Hex, verifyPassword, type Secrets } from './secrets';

export const OTP_ISSUER = 'Portal';
const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

/** A recovery code as shown: two groups of five (`k3x9p-2mq7z`), from an alphabet without look-alikes. */
export function newRecoveryCode(): string {
  let c = '';
  for (let i = 0; i < 10; i++) c += ALPHABET[randomInt(ALPHABET.length)];
  return `${c.slice(0, 5)}-${c.slice(5)}`;
}

/** How recovery codes were kept before they were salted (still accepted: those codes are in people's drawers). */
const legacyRecoveryHash = (user: string, code: string) => sha256Hex(`recovery:${user}:${normalOtp(code)}`);
/** A recovery code's hash: scrypt with a salt of its own, as a password's. */
const recoveryHash = (code: string) => hashPassword(`recovery:${normalOtp(code)}`);
const failureKey = (user: string) => `otp|${user}`;
const slowKey = (user: string) => `otp-slow|${user}`;

export type OtpVerdict = 'ok' | 'wrong' | 'limited';

export class Otp {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly secrets: Secrets,
  ) {}

  /** Whether the user signs in with a second step. */
  async enabled(user: string): Promise<boolean> {
    const row = await this.db.selectFrom('user_otp').select('enabled_at').where('user_stamp', '=', user).executeTakeFirst();
    return !!row && row.enabled_at !== null;
  }

  async recoveryLeft(user: string): Promise<number> {
    const row = await this.db
      .selectFrom('recovery_codes')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_stamp', '=', user)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** A new secret waiting for its first code (replacing one that waited); null when two-factor sign-in is on already. */
  async setup(user: string, label: string): Promise<{ secret: string; uri: string } | null> {
    if (await this.enabled(user)) return null;
    const secret = generateSecret();
    const t = now();
    await this.db
      .insertInto('user_otp')
      .values({ user_stamp: user, secret_enc: this.secrets.encrypt(secret), enabled_at: null, created_at: t })
      .onConflict((oc) =>
        oc
          .column('user_stamp')
          .doUpdateSet({ secret_enc: this.secrets.encrypt(secret), last_step: 0, created_at: t })
          .where('user_otp.enabled_at', 'is', null),
      )
      .execute();
    return { secret, uri: generateURI({ issuer: OTP_ISSUER, label, secret }) };
  }

  /** Turns on the waiting secret and hands out new recovery codes (the old ones go). */
  async enable(user: string): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    const hashes = await Promise.all(codes.map(recoveryHash));
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('user_otp').set({ enabled_at: now() }).where('user_stamp', '=', user).execute();
      await trx.deleteFrom('recovery_codes').where('user_stamp', '=', user).execute();
      await trx
        .insertInto('recovery_codes')
        .values(hashes.map((h) => ({ user_stamp: user, code_hash: h, used_at: null })))
        .execute();
    });
    return codes;
  }

  async disable(user: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('recovery_codes').where('user_stamp', '=', user).execute();
      await trx.deleteFrom('user_otp').where('user_stamp', '=', user).execute();
    });
  }

  /**
   * Checks a code: the authenticator's (of the waiting secret when `pending`), or, for an account with two-factor
   * sign-in on, an unused recovery code, which is then spent. Each authenticator code counts before it is looked at
   * (one statement: racing codes never get more looks than the limit); past OTP_MAX_FAILURES in the window the account
   * gets one look per OTP_SLOW_S, and `tripped` is called once. A right code starts the count again.
   */
  async check(user: string, code: string, opts: { pending?: boolean; tripped?: () => void } = {}): Promise<OtpVerdict> {
    const typed = normalOtp(code);
    const pending = opts.pending ?? false;
    if (isTotpCode(typed)) {
      const count = Number((await bumpCounter(this.db, failureKey(user), OTP_FAILURE_WINDOW_S * 1000)).count);
      if (count === OTP_MAX_FAILURES + 1) opts.tripped?.();
      if (count > OTP_MAX_FAILURES && Number((await bumpCounter(this.db, slowKey(user), OTP_SLOW_S * 1000)).count) > 1) return 'limited';
    }
    if (!(await this.accepts(user, typed, pending))) return 'wrong';
    await this.db
      .deleteFrom('rate_limits')
      .where('key', 'in', [failureKey(user), slowKey(user)])
      .execute();
    return 'ok';
  }

  private async accepts(user: string, code: string, pending: boolean): Promise<boolean> {
    const row = await this.db.selectFrom('user_otp').selectAll().where('user_stamp', '=', user).executeTakeFirst();
    if (!row || (row.enabled_at === null) !== pending) return false;
    if (isTotpCode(code)) {
      // One step either side for clocks that drift; a step already used is refused, so a seen code cannot be replayed.
      const r = await verify({
        secret: this.secrets.decrypt(row.secret_enc),
        token: code,
        epochTolerance: 30,
        afterTimeStep: Number(row.last_step),
      });
      // A TOTP verdict names its time step (otplib's result type also covers HOTP, which has none).
      if (!r.valid || !('timeStep' in r)) return false;
      const moved = await this.db
        .updateTable('user_otp')
        .set({ last_step: r.timeStep })
        .where('user_stamp', '=', user)
        .where('last_step', '<', r.timeStep)
        .returning('user_stamp')
        .executeTakeFirst();
      return !!moved;
    }
    if (pending) return false;
    return this.spendRecovery(user, code);
  }

  /** Spends the unused recovery code this is (salted hashes are compared one by one; there are ten at most). */
  private async spendRecovery(user: string, code: string): Promise<boolean> {
    const rows = await this.db
      .selectFrom('recovery_codes')
      .select('code_hash')
      .where('user_stamp', '=', user)
      .where('used_at', 'is', null)
      .execute();
    const legacy = legacyRecoveryHash(user, code);
    const matches = await Promise.all(
      rows.map((r) => (r.code_hash.startsWith('scrypt$') ? verifyPassword(`recovery:${code}`, r.code_hash) : r.code_hash === legacy)),
    );
    const hit = rows.find((_, i) => matches[i]);
    if (!hit) return false;
    // Spent once: two requests racing with the same code get one success between them.
    const used = await this.db
      .updateTable('recovery_codes')
      .set({ used_at: now() })
      .where('user_stamp', '=', user)
      .where('code_hash', '=', hit.code_hash)
      .where('used_at', 'is', null)
      .returning('code_hash')
      .executeTakeFirst();
    return !!used;
  }
}
