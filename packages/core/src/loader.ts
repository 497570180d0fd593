// What a failed read means to a screen: the one typed error, the text a list shows, and "not found". The reads
// themselves go through the shared data cache (query.ts, react/useLoad.ts).
import { ApiError } from './client';
import { MESSAGES } from './messages';

/** Any failure as the one typed error the doors display. */
export function toApiError(e: unknown, display: string = MESSAGES.unexpected): ApiError {
  if (e instanceof ApiError) return e;
  return new ApiError(0, 'unexpected', (e as Error)?.message ?? String(e), display);
}

/**
 * What a list shows when it could not be loaded: the screen's SPEC message when it names one, else the failure's own;
 * nothing for sign-in failures (the door shows those and leaves the screen).
 */
export function loadFailure(error: unknown, message?: string): string | null {
  if (!error || (error instanceof ApiError && error.isAuth)) return null;
  return message ?? toApiError(error).display;
}

/**
 * Whether a failure means "no such thing here" rather than trouble: 404 unknown or removed, 403 another client's (no
 * failure at all: the answer held nothing).
 */
export const isMissing = (error: { status: number } | null | undefined): boolean => !error || error.status === 404 || error.status === 403;

/** Whether a load ended without data because what it reads is not there (isMissing): a screen says "not found". */
export const loadMissing = (data: unknown, error: { status: number } | null | undefined): boolean => !data && !!error && isMissing(error);
