// One attempt of a delivery: a POST to the receiver's checked address, with a short deadline, no redirects followed
// (node:http follows none), and only the first bytes of the answer read before the connection is dropped.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { WEBHOOK_ANSWER_KEPT } from '@portal/core';
import { pinnedLookup, resolveTarget, RefusedAddress } from './address';

/** Seconds an attempt may take, connection and answer included. */
export const WEBHOOK_TIMEOUT_S = 10;

export interface AttemptResult {
  /** The receiver's status code; null when there was no answer. */
  status: number | null;
  durationMs: number;
  /** The answer's first bytes, as text. */
  answer: string;
  /** Why there was no answer (refused address, timeout, connection error), or ''. */
  error: string;
}

export async function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  opts: { allowPrivate: boolean; timeoutS?: number },
): Promise<AttemptResult> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  let target;
  try {
    target = await resolveTarget(url, opts.allowPrivate);
  } catch (err) {
    if (err instanceof RefusedAddress) return { status: null, durationMs: took(), answer: '', error: err.message };
    throw err;
  }
  const timeoutMs = (opts.timeoutS ?? WEBHOOK_TIMEOUT_S) * 1000;
  const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<AttemptResult>((resolve) => {
    let done = false;
    const finish = (r: Omit<AttemptResult, 'durationMs'>) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.destroy();
      resolve({ ...r, durationMs: took() });
    };
    const req = send(
      target.url,
      {
        method: 'POST',
        lookup: pinnedLookup(target),
        agent: false,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'Portal-Webhooks/1.0',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const settle = () =>
          finish({
            status: res.statusCode ?? null,
            answer: Buffer.concat(chunks).subarray(0, WEBHOOK_ANSWER_KEPT).toString('utf8'),
            error: '',
          });
        res.on('data', (c: Buffer) => {
          chunks.push(c);
          size += c.length;
          // Enough kept: the rest of the answer is never read.
          if (size >= WEBHOOK_ANSWER_KEPT) settle();
        });
        res.on('end', settle);
        res.on('error', settle);
      },
    );
    const timer = setTimeout(() => finish({ status: null, answer: '', error: `No answer within ${timeoutMs / 1000} s.` }), timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) =>
      finish({ status: null, answer: '', error: `Could not connect: ${err.code ?? err.message}.` }),
    );
    req.end(body);
  });
}
