// JWTs: 12-hour session tokens (naming their row in `sessions`), 30-minute single-use password-reset tokens and
// 5-minute single-use two-factor challenges (the password step's answer when two-factor sign-in is on), never accepted
// for each other. A valid signature is not enough for a session: auth/sessions.ts checks its row.
import { createSigner, createVerifier, TokenError } from 'fast-jwt';
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

/** The signer and the verifier of one signing key (HS256 only: a token naming another algorithm, `none` included, is refused). */
interface Keyed {
  raw: Uint8Array;
  sign: (payload: Record<string, unknown>) => string;
  verify: (token: string) => Record<string, unknown>;
}

/**
 * Signed and checked in the calling thread with node:crypto's HMAC (fast-jwt): no promise and no trip through libuv's
 * thread pool per call, where a burst of sign-ins' password hashing (scrypt) would otherwise hold every signed-in
 * call's token check behind it.
 */
export class Tokens {
  /** Signed with the secrets' current signing key, so replacing it (admin rotate-keys) takes effect at once. */
  constructor(private readonly secrets: Secrets) {}

  private keyed: Keyed | null = null;

  /** The signer and verifier of the current signing key, made once per key. */
  private current(): Keyed {
    const raw = this.secrets.jwtKey;
    if (this.keyed?.raw !== raw) {
      const key = Buffer.from(raw);
      this.keyed = {
        raw,
        sign: createSigner({ key, algorithm: 'HS256' }),
        verify: createVerifier({ key, algorithms: ['HS256'] }),
      };
    }
    return this.keyed;
  }

  /** A session's token: it names the session's row (`sid`), which every call checks (auth/sessions.ts). */
  session(user: SessionClaims & { sid: string }, exp: number): string {
    return this.current().sign({ email: user.email, username: user.username, typ: 'session', sid: user.sid, sub: user.sub, exp });
  }

  reset(userStamp: string): { token: string; jti: string; exp: number } {
    return this.single('reset', userStamp, RESET_TTL_S);
  }

  /** The second step's challenge: names the user only, is good for nothing but `loginOtp`, and is used once (otp_challenges). */
  otpChallenge(userStamp: string, ttlS: number): { token: string; jti: string; exp: number } {
    return this.single('otp', userStamp, ttlS);
  }

  /** The link that confirms a new email address: names the user, used once (email_changes), good for a day. */
  emailChange(userStamp: string, ttlS: number): { token: string; jti: string; exp: number } {
    return this.single('email', userStamp, ttlS);
  }

  /** A single-use token of one kind: its id (jti) names the row that records its use. */
  private single(typ: 'reset' | 'otp' | 'email', userStamp: string, ttlS: number): { token: string; jti: string; exp: number } {
    const jti = newId();
    const exp = Math.floor(Date.now() / 1000) + ttlS;
    return { token: this.current().sign({ typ, sub: userStamp, jti, exp }), jti, exp };
  }

  /** A token's claims when its signature is good, it has not expired and it is of the kind `typ`; else why not. */
  verify(token: string, typ: 'session' | 'reset' | 'otp' | 'email'): VerifyResult<SessionClaims & { jti?: string; sid?: string }> {
    let payload: Record<string, unknown>;
    try {
      payload = this.current().verify(token);
    } catch (err) {
      return { ok: false, reason: err instanceof TokenError && err.code === TokenError.codes.expired ? 'expired' : 'invalid' };
    }
    if (payload.typ !== typ || typeof payload.sub !== 'string') return { ok: false, reason: 'invalid' };
    if (typ === 'session' && typeof payload.sid !== 'string') return { ok: false, reason: 'invalid' };
    return {
      ok: true,
      claims: {
        sub: payload.sub,
        email: String(payload.email ?? ''),
        username: String(payload.username ?? ''),
        jti: typeof payload.jti === 'string' ? payload.jti : undefined,
        sid: typeof payload.sid === 'string' ? payload.sid : undefined,
      },
    };
  }
}
