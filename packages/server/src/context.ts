// The request a piece of work was started by, carried through async calls, so a job names the request that queued it
// and the worker's log lines can be joined to the API's access line (the same `reqId`).
import { AsyncLocalStorage } from 'node:async_hooks';

export const requestContext = new AsyncLocalStorage<{ reqId: string }>();

/** The id of the request being served here, or null outside one (the worker, start-up). */
export function currentRequestId(): string | null {
  return requestContext.getStore()?.reqId ?? null;
}
