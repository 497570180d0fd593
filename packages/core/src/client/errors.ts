// One typed error for every failed call: status, the server's message, and the SPEC message to show.
import type { CallName } from '../contract';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    /** HTTP status; 0 when the server could not be reached or answered something unreadable. */
    readonly status: number,
    /** The server's error code (core's ERROR_CODES), or a client-side code. */
    readonly code: string,
    /** What the server said, when it said anything. */
    readonly serverMessage: string | null,
    /** The message SPEC says to show for this failure. */
    readonly display: string,
    readonly call?: CallName,
    /** How long the server asked to wait before trying again (its Retry-After), when it said. */
    readonly retryAfterMs?: number,
  ) {
    super(display);
  }

  /** True when the request never got an HTTP answer. */
  get isNetwork(): boolean {
    return this.status === 0;
  }

  /** True when the user must sign in again (token missing, expired or refused). */
  get isAuth(): boolean {
    return this.code === 'token_missing' || this.code === 'token_expired';
  }

  /**
   * The most useful single line: SPEC's message, plus the server's reason when it adds something ('Error fetching
   * permissions: Cannot reach ...'; a message that already ends a sentence is followed by a space only).
   */
  get detail(): string {
    if (!this.serverMessage || this.serverMessage === this.display) return this.display;
    return `${this.display}${/[.!?]$/.test(this.display) ? ' ' : ': '}${this.serverMessage}`;
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;
