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
