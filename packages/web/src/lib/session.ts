// The sign-in token in local storage (SPEC section 6) and the sign-out event, without loading the API client.
import type { TokenStore } from '@portal/core';

export const TOKEN_KEY = 'portal.token';

export const tokenStore: TokenStore = {
  get: () => {
    try {
      return localStorage.getItem(TOKEN_KEY);
    } catch {
      return null;
    }
  },
  set: (token) => {
    try {
      localStorage.setItem(TOKEN_KEY, token);
    } catch {}
  },
  clear: () => {
    try {
      localStorage.removeItem(TOKEN_KEY);
    } catch {}
  },
};

type AuthHandler = (message: string) => void;
let handler: AuthHandler | null = null;
let pending: string | null = null;
let last = { message: '', at: 0 };

/** A call found no token or an expired one: the app shows the message and goes to the root. */
export function signalAuthFailure(message: string): void {
  // Several calls fail at once when a token expires: one notice is enough.
  const now = Date.now();
  if (last.message === message && now - last.at < 2000) return;
  last = { message, at: now };
  if (handler) handler(message);
  else pending = message;
}

/** The app registers its handler once; a failure signalled before that (first render) is delivered then. */
export function setAuthFailureHandler(h: AuthHandler | null): void {
  handler = h;
  if (h && pending) {
    const m = pending;
    pending = null;
    h(m);
  }
}
