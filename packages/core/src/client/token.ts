// Token rules of SPEC section 6: storage interface, expiry reading, and the refresh decision.
import { REFRESH_MIN_INTERVAL_S, REFRESH_WINDOW_S } from '../limits';

/** Where a door keeps the sign-in token (web: local storage; tui: conf). */
export interface TokenStore {
  get(): string | null;
  set(token: string): void;
  clear(): void;
  /**
   * When the token was last refreshed (ms), kept where the token is, so "at most once per 60 seconds" holds across
   * page loads and processes; a store without these keeps the time in the client's memory.
   */
  refreshedAt?(): number | null;
  setRefreshedAt?(ms: number): void;
}

/** Injected clock, in milliseconds since the epoch. */
export interface Clock {
  now(): number;
}
export const systemClock: Clock = { now: () => Date.now() };

/** A token store held in memory (tests, scripts with PORTAL_TOKEN). */
export function memoryTokenStore(initial: string | null = null): TokenStore {
  let token = initial;
  return { get: () => token, set: (t) => void (token = t), clear: () => void (token = null) };
}

function base64UrlDecode(part: string): string {
  const b64 = part
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(part.length / 4) * 4, '=');
  if (typeof atob === 'function') {
    const bin = atob(b64);
    const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  }
  return Buffer.from(b64, 'base64').toString('utf8');
}

/** The claims of a JWT, without verifying it (the server verifies); null when unreadable. */
export function readClaims(token: string): Record<string, unknown> | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  try {
    const claims = JSON.parse(base64UrlDecode(parts[1]));
    return claims && typeof claims === 'object' ? (claims as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Expiry of a token in epoch seconds, or null when it carries none. */
export function tokenExpiry(token: string): number | null {
  const exp = readClaims(token)?.exp;
  return typeof exp === 'number' ? exp : null;
}

export type TokenStatus = 'missing' | 'expired' | 'refresh' | 'ok';

/**
 * What the rules say about a token now: missing, expired, due for refresh (under 30 minutes left
 * and no refresh attempted in the last 60 seconds), or fine.
 */
export function tokenStatus(token: string | null, nowMs: number, lastRefreshMs: number | null): TokenStatus {
  if (!token) return 'missing';
  const exp = tokenExpiry(token);
  if (exp === null) return 'ok';
  const left = exp - nowMs / 1000;
  if (left <= 0) return 'expired';
  if (left < REFRESH_WINDOW_S && (lastRefreshMs === null || nowMs - lastRefreshMs >= REFRESH_MIN_INTERVAL_S * 1000)) return 'refresh';
  return 'ok';
}

/**
 * Whether a token given from outside (an environment variable, a pasted value) has a token's shape: a session token
 * (a JWT whose claims read) or a client API key's token (`pk_` and base64url). Catches a truncated or mangled paste
 * before it is sent anywhere.
 */
export function isWellFormedToken(token: string): boolean {
  return (
    /^pk_[A-Za-z0-9_-]{16,}$/.test(token) || (/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token) && readClaims(token) !== null)
  );
}
