// The request a piece of work was started by, carried through async calls, so a job names the request that queued it
// and the worker's log lines can be joined to the API's access line (the same `reqId`).
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

export const requestContext = new AsyncLocalStorage<{ reqId: string }>();

/** The id of the request being served here, or null outside one (the worker, start-up). */
export function currentRequestId(): string | null {
  return requestContext.getStore()?.reqId ?? null;
}

/** The header a request id comes in (from a balancer or a client) and goes back out in. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** What an incoming id may look like: short, printable, no spaces (it goes into log lines and headers as it is). */
const WELL_FORMED = /^[A-Za-z0-9][A-Za-z0-9._:@/+=-]{0,127}$/;

/**
 * The id of a new request: the caller's X-Request-Id when it is well formed (a balancer's, so one id follows the
 * request through every hop), else a random UUID, unique across processes and restarts.
 */
export function requestIdOf(header: string | string[] | undefined): string {
  const given = Array.isArray(header) ? header[0] : header;
  return given !== undefined && WELL_FORMED.test(given) ? given : randomUUID();
}
