// `portal webhooks listen --forward-to URL` (as `stripe listen`): for a machine the portal cannot reach, the account's
// events come over one long-lived stream from the portal and each is sent on, with its Standard Webhooks headers
// (signed by the portal with this stream's secret, printed at the start), to a local URL; a line per event says what
// the local server answered. Ctrl+C ends it (exit 130).
import { WEBHOOK_HEADERS, isApiError, listenLine, printable, type WebhookListenLine } from '@portal/core';
import { parseListenLine } from '@portal/core/contract/webhooks';
import type { Session } from '../context';
import { CliError, EXIT, usageError } from '../errors';
import type { VerbOptions } from '../verb';
import { eventsFlag } from './shared';

/** How long the local server has to answer one event. */
const FORWARD_TIMEOUT_MS = 10_000;
/** Waits before connecting again after the stream broke; past the last, listen gives up. */
const RECONNECT_MS = [1000, 2000, 5000, 10_000, 10_000];

export interface ListenOptions {
  forwardTo?: string;
  events?: string;
}

export const options: VerbOptions = {
  usage: 'listen',
  summary: "Receive the account's events here and forward each, signed, to a local URL (Ctrl+C to stop)",
  flags: [
    { flags: '--forward-to <url>', description: 'the local URL each event is POSTed to, e.g. http://localhost:3000/hooks' },
    { flags: '--events <names>', description: 'only these events, comma-separated (default: all)' },
  ],
  examples: [
    'portal webhooks listen --forward-to http://localhost:3000/hooks',
    'portal webhooks listen --forward-to http://localhost:3000/hooks --events run.finished --json',
  ],
};

type EventLine = Extract<WebhookListenLine, { type: 'event' }>;

function forwardUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw usageError(`--forward-to must be an http(s) URL, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw usageError(`--forward-to must be an http(s) URL, got "${value}"`);
  return url.href;
}

/** The event's type from its body (the line carries the body as sent). */
function typeOf(body: string): string {
  try {
    const type = (JSON.parse(body) as { type?: unknown }).type;
    return typeof type === 'string' ? type : 'event';
  } catch {
    return 'event';
  }
}

/** Lines of an NDJSON body as they arrive. */
async function* lines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let rest = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    rest += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = rest.indexOf('\n')) >= 0) {
      yield rest.slice(0, nl);
      rest = rest.slice(nl + 1);
    }
  }
  if (rest.trim()) yield rest;
}

/** The refusal's sentence from an error answer (`{error: {message}}`), else its status. */
async function refusal(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { error?: { message?: string } };
    if (body.error?.message) return body.error.message;
  } catch {
    // not JSON: the status says it
  }
  return `The portal answered ${res.status}`;
}

export async function run(opts: ListenOptions, s: Session): Promise<void> {
  const target = forwardUrl(await s.need(opts.forwardTo, '--forward-to', 'Local URL to forward to'));
  const events = opts.events === undefined ? undefined : eventsFlag(opts.events).join(',');
  const client = await s.client();
  const api = await s.api();
  const { deps, out } = s;
  const abort = new AbortController();
  const release = deps.onInterrupt?.(() => abort.abort());
  let secret: string | null = null;

  const forward = async (line: EventLine) => {
    const type = typeOf(line.body);
    const started = deps.now();
    let result: { status: number; ms: number } | { error: string };
    try {
      const res = await fetch(target, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.any([abort.signal, AbortSignal.timeout(FORWARD_TIMEOUT_MS)]),
        headers: {
          'content-type': 'application/json',
          [WEBHOOK_HEADERS.id]: line.id,
          [WEBHOOK_HEADERS.timestamp]: line.timestamp,
          [WEBHOOK_HEADERS.signature]: line.signature,
        },
        body: line.body,
      });
      await res.arrayBuffer();
      result = { status: res.status, ms: deps.now() - started };
    } catch (e) {
      if (abort.signal.aborted) return;
      const cause = (e as { cause?: { code?: string } }).cause?.code;
      result = { error: (e as Error).name === 'TimeoutError' ? 'timed out' : (cause ?? (e as Error).message) };
    }
    if (out.json)
      out.printJson({
        id: line.id,
        type,
        ...('error' in result ? { error: result.error } : { status: result.status, durationMs: result.ms }),
      });
    else deps.stdout.write(`${listenLine(new Date(deps.now()), type, line.id, result)}\n`);
  };

  const connect = async (): Promise<void> => {
    // The call before made sure the session is fresh (the client refreshes it as it nears its end).
    await api.calls.permissions();
    const token = (await s.tokens()).get();
    const query = new URLSearchParams({ client: client.stamp, ...(events ? { events } : {}) });
    const res = await fetch(`${await s.baseUrl()}/api/client/webhook/listen?${query}`, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/x-ndjson' },
      signal: abort.signal,
    });
    if (res.status === 401) throw new CliError(`${await refusal(res)}: ${await s.signInHint()}`, EXIT.auth);
    if (!res.ok || !res.body) throw new CliError(await refusal(res));
    for await (const text of lines(res.body)) {
      const line = parseListenLine(text);
      if (!line || line.type === 'ping') continue;
      if (line.type === 'listen') {
        if (line.secret !== secret) {
          secret = line.secret;
          if (out.json) out.printJson({ type: 'listen', secret, events: line.events });
          else
            out.notice(
              `Ready! Forwarding ${line.events.join(', ')} to ${printable(target)}\nThis stream's signing secret is ${secret} (Ctrl+C to quit)`,
            );
        }
        continue;
      }
      await forward(line);
    }
  };

  // Ctrl+C also ends a wait between two connections.
  const pause = (ms: number) =>
    Promise.race([deps.sleep(ms), new Promise<void>((ok) => abort.signal.addEventListener('abort', () => ok(), { once: true }))]);
  try {
    let failures = 0;
    while (!abort.signal.aborted) {
      try {
        await connect();
        failures = 0;
      } catch (e) {
        if (abort.signal.aborted) break;
        // A refusal (signed out, not an owner, no such account) will not change by trying again.
        if (e instanceof CliError || (isApiError(e) && e.status > 0 && e.status < 500)) throw e;
        if (++failures > RECONNECT_MS.length) throw new CliError(`Lost the portal's stream: ${(e as Error).message}`);
      }
      if (abort.signal.aborted) break;
      out.notice("The portal's stream ended; connecting again...");
      await pause(RECONNECT_MS[Math.min(failures, RECONNECT_MS.length - 1)]);
    }
  } finally {
    release?.();
  }
  throw Object.assign(new Error('interrupted'), { interrupted: true });
}
