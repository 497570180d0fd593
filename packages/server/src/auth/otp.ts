// Two-factor sign-in (TOTP, RFC 6238, by otplib): secrets encrypted at rest like integration tokens, recovery codes
// kept as hashes and used once, codes never accepted twice, and wrong codes counted per account in the database
// (rate_limits), so every API process refuses the same guesses.
import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import { generateSecret, generateURI, verify } from 'otplib';
import { OTP_FAILURE_WINDOW_S, OTP_MAX_FAILURES, RECOVERY_CODE_COUNT, isTotpCode, normalOtp } from '@portal/core';
import type { DB } from '../db/schema';
import { now } from '../ids';
import { bumpCounter } from '../ratelimit';
import { sha256Hex, type Secrets } from './secrets';

export const OTP_ISSUER = 'Portal';
const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

/** A recovery code as shown: two groups of five (`k3x9p-2mq7z`), from an alphabet without look-alikes. */
export function newRecoveryCode(): string {
  let c = '';
  for (let i = 0; i < 10; i++) c += ALPHABET[randomInt(ALPHABET.length)];
  return `${c.slice(0, 5)}-${c.slice(5)}`;
}

const recoveryHash = (user: string, code: string) => sha256Hex(`recovery:${user}:${normalOtp(code)}`);
const failureKey = (user: string) => `otp|${user}`;

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
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('user_otp').set({ enabled_at: now() }).where('user_stamp', '=', user).execute();
      await trx.deleteFrom('recovery_codes').where('user_stamp', '=', user).execute();
      await trx
        .insertInto('recovery_codes')
        .values(codes.map((c) => ({ user_stamp: user, code_hash: recoveryHash(user, c), used_at: null })))
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
   * sign-in on, an unused recovery code, which is then spent. Refused without looking while the account has sent
   * too many wrong codes lately; a wrong code counts.
   */
  async check(user: string, code: string, pending = false): Promise<OtpVerdict> {
    if ((await this.failures(user)) >= OTP_MAX_FAILURES) return 'limited';
    const ok = await this.accepts(user, normalOtp(code), pending);
    if (ok) {
      await this.db.deleteFrom('rate_limits').where('key', '=', failureKey(user)).execute();
      return 'ok';
    }
    await this.fail(user);
    return 'wrong';
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
    const used = await this.db
      .updateTable('recovery_codes')
      .set({ used_at: now() })
      .where('user_stamp', '=', user)
      .where('code_hash', '=', recoveryHash(user, code))
      .where('used_at', 'is', null)
      .returning('code_hash')
      .executeTakeFirst();
    return !!used;
  }

  private async failures(user: string): Promise<number> {
    const row = await this.db
      .selectFrom('rate_limits')
      .select('count')
      .where('key', '=', failureKey(user))
      .where('window_start', '>', Date.now() - OTP_FAILURE_WINDOW_S * 1000)
      .executeTakeFirst();
    return row ? Number(row.count) : 0;
  }

  private async fail(user: string): Promise<void> {
    await bumpCounter(this.db, failureKey(user), OTP_FAILURE_WINDOW_S * 1000);
  }
}
