// The request a piece of work was started by. A job records the request that queued it (passed explicitly:
// `requestId`), so the worker's log lines can be joined to the API's access line (the same `reqId`). At
// LOG_LEVEL=debug each request and each job also runs in an async context, so every query's debug line names it.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

const requestContext = new AsyncLocalStorage<{ reqId: string }>();

/**
 * Whether requests run in the async context (LOG_LEVEL=debug or trace, set at start). Not always: once an async
 * context is in use, Node runs a hook on every promise of the process, which cost the project list about a tenth
 * of its throughput (bench/api's README); only the per-query debug lines need it.
 */
let tracing = false;

export function traceRequests(on: boolean): void {
  tracing ||= on;
}

/** Runs `fn` as part of the request `reqId` (its queries' debug lines name it); only while tracing. */
export function inRequest<T>(reqId: string | null, fn: () => T): T {
  return tracing && reqId ? requestContext.run({ reqId }, fn) : fn();
}

/** The id of the request being served here while tracing, or null (not tracing, the worker, start-up). */
export function currentRequestId(): string | null {
  return tracing ? (requestContext.getStore()?.reqId ?? null) : null;
}

/** The request id a request's logger carries (Fastify binds `reqId` to `req.log`), or null for another logger. */
export function requestIdOfLog(log: unknown): string | null {
  const bindings = (log as { bindings?: () => { reqId?: unknown } }).bindings?.();
  return typeof bindings?.reqId === 'string' ? bindings.reqId : null;
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
