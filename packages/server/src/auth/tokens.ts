// JWTs: 12-hour session tokens (naming their row in `sessions`), 30-minute single-use password-reset tokens and
// 5-minute single-use two-factor challenges (the password step's answer when two-factor sign-in is on), never accepted
// for each other. A valid signature is not enough for a session: auth/sessions.ts checks its row.
import { SignJWT, jwtVerify, errors } from 'jose';
import { newId } from '../ids';
import type { Secrets } from './secrets';

export const SESSION_TTL_S = 12 * 60 * 60;
export const RESET_TTL_S = 30 * 60;

export interface SessionClaims {
  sub: string;
  email: string;
  username: string;
}

export type VerifyResult<T> = { ok: true; claims: T } | { ok: false; reason: 'expired' | 'invalid' };

export class Tokens {
  /** Signed with the secrets' current signing key, so replacing it (admin rotate-keys) takes effect at once. */
  constructor(private readonly secrets: Secrets) {}

  private imported: { raw: Uint8Array; key: Promise<CryptoKey> } | null = null;

  /** The signing key as a CryptoKey, imported once per key rather than by jose on every token it signs or checks. */
  private key(): Promise<CryptoKey> {
    const raw = this.secrets.jwtKey;
    if (this.imported?.raw !== raw) {
      const key = crypto.subtle.importKey('raw', raw as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, [
        'sign',
        'verify',
      ]);
      this.imported = { raw, key };
    }
    return this.imported.key;
  }

  async session(user: SessionClaims & { sid: string }, exp: number): Promise<string> {
    return new SignJWT({ email: user.email, username: user.username, typ: 'session', sid: user.sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.sub)
      .setIssuedAt()
      .setExpirationTime(exp)
      .sign(await this.key());
  }

  reset(userStamp: string): Promise<{ token: string; jti: string; exp: number }> {
    return this.single('reset', userStamp, RESET_TTL_S);
  }

  /** The second step's challenge: names the user only, is good for nothing but `loginOtp`, and is used once (otp_challenges). */
  otpChallenge(userStamp: string, ttlS: number): Promise<{ token: string; jti: string; exp: number }> {
    return this.single('otp', userStamp, ttlS);
  }

  /** A single-use token of one kind: its id (jti) names the row that records its use. */
  /** The link that confirms a new email address: names the user, used once (email_changes), good for a day. */
  emailChange(userStamp: string, ttlS: number): Promise<{ token: string; jti: string; exp: number }> {
    return this.single('email', userStamp, ttlS);
  }

  private async single(
    typ: 'reset' | 'otp' | 'email',
    userStamp: string,
    ttlS: number,
  ): Promise<{ token: string; jti: string; exp: number }> {
    const jti = newId();
    const exp = Math.floor(Date.now() / 1000) + ttlS;
    const token = await new SignJWT({ typ })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userStamp)
      .setJti(jti)
      .setIssuedAt()
      .setExpirationTime(exp)
      .sign(await this.key());
    return { token, jti, exp };
  }

  async verify(
    token: string,
    typ: 'session' | 'reset' | 'otp' | 'email',
  ): Promise<VerifyResult<SessionClaims & { jti?: string; sid?: string }>> {
    try {
      const { payload } = await jwtVerify(token, await this.key(), { algorithms: ['HS256'] });
      if (payload.typ !== typ || typeof payload.sub !== 'string') return { ok: false, reason: 'invalid' };
      if (typ === 'session' && typeof payload.sid !== 'string') return { ok: false, reason: 'invalid' };
      return {
        ok: true,
        claims: {
          sub: payload.sub,
          email: String(payload.email ?? ''),
          username: String(payload.username ?? ''),
          jti: payload.jti,
          sid: typeof payload.sid === 'string' ? payload.sid : undefined,
        },
      };
    } catch (err) {
      return { ok: false, reason: err instanceof errors.JWTExpired ? 'expired' : 'invalid' };
    }
  }
}
