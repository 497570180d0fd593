// The OpenAI embeddings client a text-embedding request uses: texts go in batches within the provider's limits to
// `POST {base}/embeddings` (the operator's OPENAI_BASE_URL, never a host a user names), rate limits are waited out
// honouring Retry-After, timeouts and 5xx are retried a bounded number of times, and every way it can end is a
// sentence that says what to do. The token goes only into the Authorization header: never into a message or a log.
import { OPENAI_EMBEDDING_MODEL, TEXT_EMBEDDING_MESSAGES } from '@portal/core';
import type { Secrets } from '../auth/secrets';

export interface ProviderSettings {
  /** The operator's base URL, e.g. https://api.openai.com/v1 (no trailing slash). */
  baseUrl: string;
  /** Seconds one call may take before it is abandoned and retried. */
  timeoutS: number;
  /** Told of every call when it ends: how long it took and how it ended (metrics). */
  onCall?(call: { seconds: number; outcome: string }): void;
}

/** How hard to try; the defaults suit the real service, tests shorten the waits. */
export interface RetryPolicy {
  /** Attempts of one call answered 429 before the request fails. */
  rateLimitAttempts: number;
  /** Attempts of one call that timed out, failed to connect or was answered 5xx. */
  errorAttempts: number;
  /** The first backoff in ms (doubled each time) when the service names no wait. */
  backoffMs: number;
  /** The longest single wait in ms; a Retry-After longer than this fails the request at once. */
  maxWaitMs: number;
}

/** What a worker needs for text-embedding requests: the provider, and the secrets that open the stored keys. */
export interface TextEmbeddingSettings extends ProviderSettings {
  secrets: Secrets;
  retry?: RetryPolicy;
}

export const RETRY_POLICY: RetryPolicy = { rateLimitAttempts: 6, errorAttempts: 4, backoffMs: 1000, maxWaitMs: 60_000 };

/** The provider's limits on one call: 2,048 inputs and 300,000 tokens (a token is at least one UTF-8 byte). */
export const MAX_TEXTS_PER_CALL = 2048;
export const MAX_BYTES_PER_CALL = 300_000;
/** Values per answer, so one answer's JSON stays some tens of MB whatever the width. */
const MAX_VALUES_PER_CALL = 1_000_000;
/** An answer larger than this is not read (1,000,000 values at about 20 bytes each, with room to spare). */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/** A way the request ended that the user reads: the message is the whole sentence. */
export class ProviderFailure extends Error {}

/** The texts of each call, in order: at most 2,048 texts, 300,000 bytes and about a million values per call. */
export function planBatches(texts: readonly string[], dimensions: number): Array<{ start: number; end: number }> {
  const perCall = Math.max(1, Math.min(MAX_TEXTS_PER_CALL, Math.floor(MAX_VALUES_PER_CALL / Math.max(1, dimensions))));
  const batches: Array<{ start: number; end: number }> = [];
  let start = 0;
  let bytes = 0;
  for (let i = 0; i < texts.length; i++) {
    const b = Buffer.byteLength(texts[i], 'utf8');
    if (i > start && (i - start >= perCall || bytes + b > MAX_BYTES_PER_CALL)) {
      batches.push({ start, end: i });
      start = i;
      bytes = 0;
    }
    bytes += b;
  }
  if (start < texts.length) batches.push({ start, end: texts.length });
  return batches;
}

export interface EmbedRequest {
  token: string;
  /** The key's name, for the sentences. */
  keyName: string;
  texts: readonly string[];
  /** The width expected (batches are sized for it). */
  dimensions: number;
  /** Whether the request asked for that width: only then is `dimensions` sent (gateways such as vLLM refuse it). */
  sendDimensions: boolean;
  /** Aborts the whole request (stop or time limit); waits and calls end at once. */
  signal: AbortSignal;
  /** Each batch's vectors, in order, as they arrive (written to a scratch file, not kept). */
  onVectors(vectors: number[][]): Promise<void>;
  /** Sentences for the request's event log (waits and retries). */
  onNote?(message: string, data: Record<string, unknown>): void;
  retry?: RetryPolicy;
  /** Where an earlier attempt stopped to wait (the vectors before `next` were written already). */
  resume?: EmbedProgress;
  /**
   * Waits are not slept here: the request throws WaitAndResume, so the job gives its worker slot back and is
   * claimed again when the wait is over (a service that rate-limits or fails holds no slot while it is waited out).
   */
  yieldWaits?: boolean;
}

/** How far a request got, and the retry counters of the call it waits to make again. */
export interface EmbedProgress {
  /** The batch to send next. */
  next: number;
  limited: number;
  errors: number;
  waitedMs: number;
  calls: number;
  width: number;
  /** When the next call may be made (epoch ms): the queue counts whole seconds, the rest is waited here. */
  notBefore: number;
}

/** The request waits `waitMs` before its next call: the caller stores `progress` and resumes from it then. */
export class WaitAndResume extends Error {
  constructor(
    readonly waitMs: number,
    readonly progress: EmbedProgress,
  ) {
    super(`waiting ${waitMs} ms`);
  }
}

export interface EmbedOutcome {
  /** Calls made, retries included. */
  calls: number;
  batches: number;
  width: number;
}

const fmt = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, one: string, many = `${one}s`) => `${fmt(n)} ${n === 1 ? one : many}`;
const seconds = (ms: number) => `${Math.max(1, Math.round(ms / 1000))} s`;

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The wait a 429 asks for, in ms: `retry-after-ms`, then `Retry-After` as seconds or an HTTP date; null when none. */
export function retryAfterMs(headers: Headers, nowMs = Date.now()): number | null {
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.get('retry-after-ms') !== null && Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers.get('retry-after')?.trim();
  if (!raw) return null;
  if (/^\d+(\.\d+)?$/.test(raw)) return Number(raw) * 1000;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

/** A call's outcome as a metric label: a few values, whatever the service answers. */
function callOutcome(how: 'timeout' | 'error' | number): string {
  if (typeof how === 'string') return how;
  if (how >= 200 && how < 300) return 'ok';
  if (how === 429) return 'rate_limited';
  return how >= 500 ? 'server_error' : 'refused';
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/**
 * The provider's own words about a refusal as one plain sentence: the message of a JSON error, or the title or text
 * of an HTML page, with tags, entities, escapes and control or direction characters gone, short, and the token cut out.
 */
export function providerWords(body: string, token: string): string {
  let text = body;
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const m = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message);
    if (typeof m === 'string') text = m;
  } catch {
    // Not JSON: the text itself, or a web page's title.
    const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(body);
    if (title) text = title[1];
    else if (/<[a-z!/][^>]*>/i.test(body)) text = body.replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ');
  }
  text = text
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (_all, e: string) => {
      if (e[0] !== '#') return ENTITIES[e.toLowerCase()] ?? ' ';
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
    })
    // Escapes written out as text (\u001b, \x1b, \n) and the characters themselves: controls, direction marks.
    .replace(/\\(u[0-9a-f]{4}|x[0-9a-f]{2}|[nrtbfve0])/gi, ' ')
    // eslint-disable-next-line no-control-regex -- removing control characters is the point
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g, ' ');
  if (token) text = text.split(token).join('***');
  text = text
    .replace(/sk-[A-Za-z0-9_*-]{6,}/g, 'sk-***')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/** Reads a body up to `max` bytes; past it the answer is refused rather than read into memory. */
async function readCapped(res: Response, max: number): Promise<string | null> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > max) {
      await reader.cancel();
      return null;
    }
    parts.push(value);
  }
  return Buffer.concat(parts).toString('utf8');
}

/** The vectors of one answer, in the order of the texts sent, or why the answer cannot be used. */
function vectorsOf(text: string, count: number): number[][] | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'its answer was not JSON';
  }
  const data = (parsed as { data?: unknown }).data;
  if (!Array.isArray(data) || data.length !== count)
    return `it answered ${Array.isArray(data) ? plural(data.length, 'vector') : 'no vectors'} for ${plural(count, 'text')}`;
  const out: number[][] = new Array<number[]>(count);
  for (let i = 0; i < count; i++) {
    const item = data[i] as { index?: unknown; embedding?: unknown };
    const at = item && typeof item.index === 'number' ? item.index : i;
    if (!Number.isInteger(at) || at < 0 || at >= count || out[at]) return 'its answer numbered the vectors wrongly';
    const v = item.embedding;
    if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === 'number' && Number.isFinite(x)))
      return 'its answer held a vector that is not a list of numbers';
    out[at] = v as number[];
  }
  return out;
}

/**
 * Embeds every text, batch after batch; each batch's vectors go to `onVectors` in order. Throws ProviderFailure with
 * the sentence for the user, or the signal's reason when the request was stopped.
 */
export async function embedTexts(settings: ProviderSettings, req: EmbedRequest): Promise<EmbedOutcome> {
  const policy = req.retry ?? RETRY_POLICY;
  // A header cannot carry other characters: say so, rather than retrying a call that can never be made.
  if (!/^[\x21-\x7e]+$/.test(req.token)) {
    throw new ProviderFailure(
      `The key '${req.keyName}' holds spaces or characters an OpenAI key cannot have: check or replace it on Integrations.`,
    );
  }
  const batches = planBatches(req.texts, req.dimensions);
  const url = `${settings.baseUrl.replace(/\/+$/, '')}/embeddings`;
  const from = req.resume;
  if (from && from.notBefore > Date.now()) await pause(Math.min(from.notBefore - Date.now(), 1000), req.signal);
  let calls = from?.calls ?? 0;
  let width = from?.width ?? 0;
  for (let n = from?.next ?? 0; n < batches.length; n++) {
    const batch = batches[n];
    const input = req.texts.slice(batch.start, batch.end);
    const body = JSON.stringify({
      model: OPENAI_EMBEDDING_MODEL,
      input,
      ...(req.sendDimensions ? { dimensions: req.dimensions } : {}),
      encoding_format: 'float',
    });
    const resumed = from && from.next === n;
    let limited = resumed ? from.limited : 0;
    let errors = resumed ? from.errors : 0;
    let waitedMs = resumed ? from.waitedMs : 0;
    const holdOff = async (ms: number) => {
      if (req.yieldWaits) throw new WaitAndResume(ms, { next: n, limited, errors, waitedMs, calls, width, notBefore: Date.now() + ms });
      await pause(ms, req.signal);
    };
    for (;;) {
      calls++;
      // A controller and a timer of this call's own, cleared when the call is over: the timer always fires (a
      // signal combined from AbortSignal.timeout can be collected before it fires, leaving the call unbounded).
      const call = new AbortController();
      const timer = setTimeout(() => call.abort(new Error('timeout')), settings.timeoutS * 1000);
      const stop = () => call.abort(req.signal.reason);
      if (req.signal.aborted) stop();
      else req.signal.addEventListener('abort', stop, { once: true });
      const timedOut = () => call.signal.aborted && !req.signal.aborted;
      const started = process.hrtime.bigint();
      let res: Response | null = null;
      let failure = '';
      let answer: string | null = null;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${req.token}`, 'content-type': 'application/json', accept: 'application/json' },
          body,
          signal: call.signal,
          // Only the operator's host: a redirect elsewhere is an error, not followed.
          redirect: 'error',
        });
      } catch {
        if (req.signal.aborted) throw req.signal.reason;
        failure = timedOut() ? `no answer within ${fmt(settings.timeoutS)} s` : 'the service could not be reached';
      }
      try {
        if (res) {
          try {
            answer = await readCapped(res, MAX_ANSWER_BYTES);
          } catch {
            if (req.signal.aborted) throw req.signal.reason;
            failure = timedOut() ? `no answer within ${fmt(settings.timeoutS)} s` : 'the answer was cut off';
          }
        }
      } finally {
        clearTimeout(timer);
        req.signal.removeEventListener('abort', stop);
        settings.onCall?.({
          seconds: Number(process.hrtime.bigint() - started) / 1e9,
          outcome: callOutcome(failure ? (timedOut() ? 'timeout' : 'error') : (res?.status ?? 0)),
        });
      }
      if (res && !failure) {
        if (res.ok) {
          const vectors = answer === null ? 'its answer was too large to read' : vectorsOf(answer, input.length);
          if (typeof vectors === 'string') {
            throw new ProviderFailure(`The embeddings service at the OpenAI base URL could not be used: ${vectors}. Contact support.`);
          }
          if (width === 0) {
            width = vectors[0].length;
            if (width !== req.dimensions) {
              req.onNote?.(`The service answered ${plural(width, 'value')} per text instead of the ${fmt(req.dimensions)} expected.`, {
                width,
                dimensions: req.dimensions,
              });
            }
          }
          if (vectors.some((v) => v.length !== width)) {
            throw new ProviderFailure(
              'The embeddings service answered vectors of different lengths, so no result was written. Contact support.',
            );
          }
          await req.onVectors(vectors);
          break;
        }
        const words = providerWords(answer ?? '', req.token);
        if (res.status === 401 || res.status === 403)
          throw new ProviderFailure(TEXT_EMBEDDING_MESSAGES.keyRefused(req.keyName, res.status));
        if (res.status === 429) {
          if (/quota/i.test(words) && !/rate limit/i.test(words)) {
            throw new ProviderFailure(
              `OpenAI refused the key '${req.keyName}' (429): its account has no quota left; check its plan and billing with OpenAI.`,
            );
          }
          limited++;
          const asked = retryAfterMs(res.headers);
          const wait = asked ?? policy.backoffMs * 2 ** (limited - 1);
          if (asked !== null && asked > policy.maxWaitMs) {
            throw new ProviderFailure(
              `OpenAI rate-limited the key '${req.keyName}' and asked to wait ${seconds(asked)}, longer than a request waits: try again later, or raise the key's limits with OpenAI.`,
            );
          }
          if (limited >= policy.rateLimitAttempts) {
            throw new ProviderFailure(
              `OpenAI kept rate-limiting the key '${req.keyName}' (429) after ${plural(limited, 'try', 'tries')} over ${seconds(waitedMs)}: try again later, or raise the key's limits with OpenAI.`,
            );
          }
          const ms = Math.min(wait, policy.maxWaitMs);
          req.onNote?.(
            `OpenAI rate-limited call ${fmt(n + 1)} of ${fmt(batches.length)} (429); waiting ${seconds(ms)}${asked !== null ? ' as its Retry-After asks' : ''} before trying again.`,
            { status: 429, waitMs: ms, call: n + 1 },
          );
          waitedMs += ms;
          await holdOff(ms);
          continue;
        }
        if (res.status < 500) {
          throw new ProviderFailure(`OpenAI refused the request (${res.status})${words ? `: ${words.replace(/[.!?]$/, '')}` : ''}.`);
        }
        failure = `status ${res.status}`;
      }
      errors++;
      if (errors >= policy.errorAttempts) {
        throw new ProviderFailure(
          `OpenAI's embeddings service failed ${plural(errors, 'time')} in a row on call ${fmt(n + 1)} of ${fmt(batches.length)} (last: ${failure}), so no result was written: try again later.`,
        );
      }
      const ms = Math.min(policy.backoffMs * 2 ** (errors - 1), policy.maxWaitMs);
      req.onNote?.(`Call ${fmt(n + 1)} of ${fmt(batches.length)} failed (${failure}); trying again in ${seconds(ms)}.`, {
        call: n + 1,
        waitMs: ms,
      });
      await holdOff(ms);
    }
  }
  return { calls, batches: batches.length, width };
}
