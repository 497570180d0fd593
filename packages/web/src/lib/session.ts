// The sign-in token in local storage (SPEC section 6), when it was last refreshed, the sign-out event, and where to
// return after signing in again, without loading the API client.
import type { TokenStore } from '@portal/core';

export const TOKEN_KEY = 'portal.token';
/** When the token was last refreshed (ms): SPEC's "at most once per 60 seconds" holds across page loads. */
export const REFRESHED_KEY = 'portal.tokenRefreshedAt';
/** Set by a deliberate logout: a page reached afterwards (Back) goes to the root without a 'Token missing' notice. */
export const SIGNED_OUT_KEY = 'portal.signedOut';
/** The page a session ended on, to open again after the next sign-in (this tab only). */
export const RETURN_KEY = 'portal.returnTo';
/** A return older than this is stale: the user has moved on. */
const RETURN_TTL_MS = 60 * 60 * 1000;

function read(storage: () => Storage, key: string): string | null {
  try {
    return storage().getItem(key);
  } catch {
    return null; // storage blocked (privacy mode): nothing remembered
  }
}
function write(storage: () => Storage, key: string, value: string | null): void {
  try {
    if (value === null) storage().removeItem(key);
    else storage().setItem(key, value);
  } catch {
    // storage blocked (privacy mode): the value lives as long as the page
  }
}
const local = () => localStorage;
const tab = () => sessionStorage;

export const tokenStore: TokenStore = {
  get: () => read(local, TOKEN_KEY),
  set: (token) => {
    write(local, TOKEN_KEY, token);
    write(local, SIGNED_OUT_KEY, null);
  },
  clear: () => write(local, TOKEN_KEY, null),
  refreshedAt: () => {
    const ms = Number(read(local, REFRESHED_KEY));
    return Number.isFinite(ms) && ms > 0 ? ms : null;
  },
  setRefreshedAt: (ms) => write(local, REFRESHED_KEY, String(ms)),
};

/** A deliberate logout: the token is gone on purpose, so no 'Token missing' notice follows and no return is kept. */
export function markSignedOut(): void {
  write(local, SIGNED_OUT_KEY, '1');
  write(tab, RETURN_KEY, null);
}

export function signedOutOnPurpose(): boolean {
  return read(local, SIGNED_OUT_KEY) === '1';
}

/** Remembers the page a session ended on (path and query), unless the user signed out on purpose. */
export function rememberReturn(path: string): void {
  if (signedOutOnPurpose() || path === '/' || path.startsWith('/account')) return;
  write(tab, RETURN_KEY, JSON.stringify({ path, at: Date.now() }));
}

/** The page to open after signing in again, or null (read without forgetting it: a render may run twice). */
export function peekReturn(): string | null {
  const raw = read(tab, RETURN_KEY);
  if (!raw) return null;
  try {
    const { path, at } = JSON.parse(raw) as { path?: unknown; at?: unknown };
    // Only a path of this origin: never a URL someone could plant to send the user elsewhere.
    if (typeof path !== 'string' || !path.startsWith('/') || path.startsWith('//') || typeof at !== 'number') return null;
    return Date.now() - at < RETURN_TTL_MS ? path : null;
  } catch {
    return null; // an unreadable entry is no return
  }
}

/** The return was used: the next visit to My Account stays there. */
export function clearReturn(): void {
  write(tab, RETURN_KEY, null);
}

type AuthHandler = (message: string) => void;
let handler: AuthHandler | null = null;
let pending: string | null = null;
let lastAt = 0;

/** How long one ended session counts as one event: the calls failing with it give one notice, not one each. */
const EPISODE_MS = 3000;

/**
 * A call found no token or an expired one: the app shows the message and goes to the root. Several calls fail at once
 * when a token ends (an invalid token is 'Token expired' for the first and 'Token missing' for the next, once it is
 * removed): the first message stands, the rest of the episode is quiet. After a deliberate logout there is no notice.
 */
export function signalAuthFailure(message: string): void {
  const now = Date.now();
  if (now - lastAt < EPISODE_MS) return;
  lastAt = now;
  const shown = signedOutOnPurpose() ? '' : message;
  if (handler) handler(shown);
  else pending = shown;
}

/** The app registers its handler once; a failure signalled before that (first render) is delivered then. */
export function setAuthFailureHandler(h: AuthHandler | null): void {
  handler = h;
  if (h && pending !== null) {
    const m = pending;
    pending = null;
    h(m);
  }
}

/** Tests: forget the last episode. */
export function resetAuthEpisode(): void {
  lastAt = 0;
  pending = null;
}
