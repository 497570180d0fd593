// HTTP errors with the wire's `{ error: { code, message } }` shape (DESIGN.md's statuses and core's codes).
import { ERROR_CODES, MESSAGES } from '@portal/core';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    /** Headers the answer carries besides the error (e.g. Retry-After on a 429). */
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new HttpError(400, ERROR_CODES.invalid, message);
export const unauthorized = (message: string = MESSAGES.invalidCredentials) => new HttpError(401, ERROR_CODES.unauthorized, message);
export const tokenMissing = () => new HttpError(401, ERROR_CODES.tokenMissing, MESSAGES.tokenMissing);
export const tokenExpired = () => new HttpError(401, ERROR_CODES.tokenExpired, MESSAGES.tokenExpired);
export const forbidden = (message: string = MESSAGES.forbidden) => new HttpError(403, ERROR_CODES.forbidden, message);
export const notFound = (what?: string) => new HttpError(404, ERROR_CODES.notFound, what ? `${what} not found` : MESSAGES.notFound);
export const conflict = (message: string) => new HttpError(409, ERROR_CODES.conflict, message);
export const tooLarge = (message: string) => new HttpError(413, ERROR_CODES.tooLarge, message);
export const storageFull = () => new HttpError(507, ERROR_CODES.storageFull, MESSAGES.storageFull, { 'retry-after': '60' });

/**
 * Whether an error says the disk is full: ENOSPC (or EDQUOT, a quota) from a file call, or a database's disk_full
 * (SQLSTATE 53100), or the embedded database's own words for it.
 */
export function isDiskFull(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown; cause?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.code === 'ENOSPC' || e.code === 'EDQUOT' || e.code === '53100') return true;
  if (typeof e.message === 'string' && /No space left on device|could not extend file|disk quota exceeded/i.test(e.message)) return true;
  return e.cause !== undefined && e.cause !== err && isDiskFull(e.cause);
}

/** The code for a status, when an error from a library carries only the status. */
export function codeForStatus(status: number): string {
  switch (status) {
    case 401:
      return ERROR_CODES.unauthorized;
    case 403:
      return ERROR_CODES.forbidden;
    case 404:
      return ERROR_CODES.notFound;
    case 409:
      return ERROR_CODES.conflict;
    case 413:
      return ERROR_CODES.tooLarge;
    case 429:
      return ERROR_CODES.rateLimited;
    default:
      return status >= 500 ? ERROR_CODES.internal : ERROR_CODES.invalid;
  }
}
