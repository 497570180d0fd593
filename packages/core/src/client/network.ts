// How every call behaves on the network: a time limit, retries with backoff for calls that are safe to repeat, and
// the sentences that say what happened when no usable answer came (unreachable, timed out, server error).
import { MESSAGES } from '../messages';

/** A call with no answer after this long fails (PORTAL_TIMEOUT / --timeout in the CLI). */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** Waits before the 2nd and 3rd tries of an idempotent call that could not reach the server or got 502/503/504. */
export const RETRY_DELAYS_MS = [300, 900] as const;

/** Statuses that mean "try again": a proxy or the server is briefly unable to serve. */
export const isRetryableStatus = (status: number) => status === 502 || status === 503 || status === 504;

/** The wait a Retry-After header asks for (seconds or an HTTP date), in ms; undefined when absent or unreadable. */
export function retryAfterMs(headers: { get(name: string): string | null }): number | undefined {
  const said = headers.get('retry-after')?.trim();
  if (!said) return undefined;
  if (/^\d+$/.test(said)) return Number(said) * 1000;
  const at = Date.parse(said);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  CERT_HAS_EXPIRED: 'certificate expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed certificate',
  UND_ERR_SOCKET: 'connection closed',
};

/** A few words on why a request got no answer, from the error's chain of causes (Node's codes), else its message. */
export function networkReason(e: unknown): string {
  let cur: unknown = e;
  for (let i = 0; i < 5 && cur && typeof cur === 'object'; i++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') return REASONS[code] ?? code;
    cur = (cur as { cause?: unknown }).cause;
  }
  const message = e instanceof Error ? e.message : '';
  return message && !/fetch failed|network/i.test(message) ? message : 'no connection';
}

export const originOfUrl = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
};

/** A signal that aborts when the caller's does or when the time is up; `timedOut` says which. */
export function deadline(ms: number, outer?: AbortSignal | null) {
  const controller = new AbortController();
  let timedOut = false;
  const onOuter = () => controller.abort(outer!.reason);
  if (outer?.aborted) controller.abort(outer.reason);
  else outer?.addEventListener('abort', onOuter, { once: true });
  const timer =
    ms > 0
      ? setTimeout(() => {
          timedOut = true;
          controller.abort(new DOMException(`timed out after ${ms} ms`, 'TimeoutError'));
        }, ms)
      : null;
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    done() {
      if (timer) clearTimeout(timer);
      outer?.removeEventListener('abort', onOuter);
    },
  };
}

/** Whole seconds when it is a whole number, else one decimal (a timeout of 0.5 s reads "0.5 s"). */
export const seconds = (ms: number) => Math.round(ms / 100) / 10;

export const timeoutText = (url: string, ms: number) => MESSAGES.timedOut(originOfUrl(url), seconds(ms));
export const unreachableText = (url: string, e: unknown) => MESSAGES.cannotReach(originOfUrl(url), networkReason(e));

export const sleepMs = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
