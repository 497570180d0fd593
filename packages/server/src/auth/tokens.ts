// JWTs: 12-hour session tokens and 30-minute single-use password-reset tokens, never accepted for each other.
import { SignJWT, jwtVerify, errors } from 'jose';
import { createHash } from 'node:crypto';
import { newId } from '../ids';

export const SESSION_TTL_S = 12 * 60 * 60;
export const RESET_TTL_S = 30 * 60;

export interface SessionClaims {
  sub: string;
  email: string;
  username: string;
}

export type VerifyResult<T> = { ok: true; claims: T } | { ok: false; reason: 'expired' | 'invalid' };

export class Tokens {
  private readonly key: Uint8Array;
  /** Session tokens already verified, until they expire: the signature check is the costliest step of a read. */
  private readonly verified = new Map<string, { claims: SessionClaims; exp: number }>();
  constructor(secret: string) {
    this.key = createHash('sha256').update(`portal-jwt:${secret}`).digest();
  }

  /** A session token; `ttlS` other than the default is for tests of expiry. */
  session(user: SessionClaims, ttlS = SESSION_TTL_S): Promise<string> {
    return new SignJWT({ email: user.email, username: user.username, typ: 'session' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.sub)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttlS)
      .sign(this.key);
  }

  async reset(userStamp: string): Promise<{ token: string; jti: string; exp: number }> {
    const jti = newId();
    const exp = Math.floor(Date.now() / 1000) + RESET_TTL_S;
    const token = await new SignJWT({ typ: 'reset' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userStamp)
      .setJti(jti)
      .setIssuedAt()
      .setExpirationTime(exp)
      .sign(this.key);
    return { token, jti, exp };
  }

  async verify(token: string, typ: 'session' | 'reset'): Promise<VerifyResult<SessionClaims & { jti?: string }>> {
    if (typ === 'session') {
      const hit = this.verified.get(token);
      if (hit) {
        if (hit.exp > Date.now() / 1000) return { ok: true, claims: hit.claims };
        this.verified.delete(token);
        return { ok: false, reason: 'expired' };
      }
    }
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (payload.typ !== typ || typeof payload.sub !== 'string') return { ok: false, reason: 'invalid' };
      const claims = { sub: payload.sub, email: String(payload.email ?? ''), username: String(payload.username ?? '') };
      if (typ === 'session' && typeof payload.exp === 'number') {
        if (this.verified.size >= 50_000) this.verified.clear();
        this.verified.set(token, { claims, exp: payload.exp });
      }
      return { ok: true, claims: { ...claims, jti: payload.jti } };
    } catch (err) {
      return { ok: false, reason: err instanceof errors.JWTExpired ? 'expired' : 'invalid' };
    }
  }
}
