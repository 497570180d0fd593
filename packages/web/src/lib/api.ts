// The one API client of the browser: same origin, token in local storage, sign-in failures sent to the app.
import { ApiClient, isApiError, MESSAGES } from '@portal/core';
import { signalAuthFailure, tokenStore } from './session';

export const api = new ApiClient({ baseUrl: '', tokens: tokenStore, onAuthFailure: signalAuthFailure });

/** The message to show for a failed call: SPEC's text when core knows one, else a generic one. */
export function failureMessage(e: unknown, fallback: string = MESSAGES.unexpected): string {
  if (isApiError(e)) return e.display;
  return fallback;
}

/** What a list shows when it could not be loaded: SPEC's message when it names one; nothing for sign-in failures (they leave the page). */
export function loadFailure(error: unknown, message?: string): string | null {
  if (!error || isAuthFailure(error)) return null;
  return message ?? failureMessage(error);
}

/** Sign-in failures are already shown by the auth event: callers skip their own notice for them. */
export function isAuthFailure(e: unknown): boolean {
  return isApiError(e) && e.isAuth;
}
