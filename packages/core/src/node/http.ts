// The API calls' transport for Node programs (the `portal` CLI): node:http(s) with kept-alive connections. Node 20's
// own fetch and Headers are undici, which Node loads on first use: about 20 ms of every command's start-up, for a
// few small JSON requests to one server. ofetch takes a fetch and a Headers class (`ApiClientOptions.http`); these
// implement the part of them it uses: string bodies, an abort signal, status, headers and the body as text.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions, type ClientRequest } from 'node:http';

type HeadersInput = PlainHeaders | Record<string, string> | Iterable<readonly [string, string]> | undefined;

/** Case-insensitive request and response headers (one value per name, as JSON APIs use them). */
export class PlainHeaders {
  private readonly map = new Map<string, string>();

  constructor(init?: HeadersInput) {
    if (!init) return;
    const pairs =
      Symbol.iterator in Object(init) ? (init as Iterable<readonly [string, string]>) : Object.entries(init as Record<string, string>);
    for (const [k, v] of pairs) this.set(k, v);
  }
  get(name: string): string | null {
    return this.map.get(name.toLowerCase()) ?? null;
  }
  has(name: string): boolean {
    return this.map.has(name.toLowerCase());
  }
  set(name: string, value: string): void {
    this.map.set(name.toLowerCase(), String(value));
  }
  append(name: string, value: string): void {
    const had = this.get(name);
    this.set(name, had === null ? value : `${had}, ${value}`);
  }
  delete(name: string): void {
    this.map.delete(name.toLowerCase());
  }
  forEach(fn: (value: string, name: string) => void): void {
    this.map.forEach(fn);
  }
  entries(): IterableIterator<[string, string]> {
    return this.map.entries();
  }
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.map.entries();
  }
}

/** A received answer, read whole (API answers are small JSON documents). */
export class PlainResponse {
  readonly ok: boolean;
  /** Non-null when the answer has a body (ofetch only reads bodies it is told exist). */
  readonly body: Buffer | null;
  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly headers: PlainHeaders,
    private readonly bytes: Buffer,
    readonly url: string,
  ) {
    this.ok = status >= 200 && status < 300;
    this.body = bytes.length ? bytes : null;
  }
  async text(): Promise<string> {
    return this.bytes.toString('utf8');
  }
  async json(): Promise<unknown> {
    return JSON.parse(this.bytes.toString('utf8'));
  }
}

interface PlainInit {
  method?: string;
  headers?: HeadersInput;
  body?: string | Uint8Array | null;
  signal?: AbortSignal | null;
}

// Kept-alive connections: a command's calls share one. Node unreferences an idle socket, so it never holds the
// process open after the command is done.
const httpAgent = new HttpAgent({ keepAlive: true });
type Sender = (url: URL, options: RequestOptions) => ClientRequest;
const http: Promise<Sender> = Promise.resolve((url, options) => httpRequest(url, { ...options, agent: httpAgent }));
/**
 * Node's HTTP module for an address's protocol: node:https (and TLS with it) loads with the first https address, so a
 * command talking to an http server never loads it (the API calls here, a push's PUT in the CLI).
 */
export const httpModuleFor = (protocol: string): Promise<{ Agent: typeof HttpAgent; request: typeof httpRequest }> =>
  protocol === 'https:' ? import('node:https') : Promise.resolve({ Agent: HttpAgent, request: httpRequest });
let https: Promise<Sender> | null = null;
const senderFor = (protocol: string): Promise<Sender> =>
  protocol === 'https:'
    ? (https ??= httpModuleFor(protocol).then(({ Agent, request }) => {
        const agent = new Agent({ keepAlive: true });
        return (url: URL, options: RequestOptions) => request(url, { ...options, agent });
      }))
    : http;

/** fetch's contract for what ofetch sends: rejects with a TypeError when the server cannot be reached, and with the signal's reason when aborted. */
export function plainFetch(input: string | URL, init: PlainInit = {}): Promise<PlainResponse> {
  const url = new URL(String(input));
  const { signal } = init;
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return Promise.reject(new TypeError(`fetch failed: unsupported protocol ${url.protocol}`));
  if (signal?.aborted) return Promise.reject(signal.reason);
  const headers: Record<string, string> = {};
  new PlainHeaders(init.headers).forEach((v, k) => (headers[k] = v));
  const body = init.body ?? undefined;
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  const attempt = (send: Sender, retried: boolean): Promise<PlainResponse> =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const req = send(url, { method: init.method ?? 'GET', headers });
      let answered = false;
      const onAbort = () => req.destroy(signal!.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      const fail = (e: NodeJS.ErrnoException) => {
        signal?.removeEventListener('abort', onAbort);
        if (signal?.aborted) return reject(signal.reason);
        // A kept-alive connection the server closed while idle fails before any answer: the request never reached
        // it, so it is sent once more on a new connection (Node's documented remedy for this race).
        if (!retried && !answered && req.reusedSocket && e.code === 'ECONNRESET') return resolve(attempt(send, true));
        reject(new TypeError('fetch failed', { cause: e }));
      };
      req.on('error', fail);
      req.on('response', (res: IncomingMessage) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', fail);
        res.on('end', () => {
          signal?.removeEventListener('abort', onAbort);
          const answer = new PlainHeaders();
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) answer.set(k, Array.isArray(v) ? v.join(', ') : v);
          resolve(new PlainResponse(res.statusCode ?? 0, res.statusMessage ?? '', answer, Buffer.concat(chunks), url.toString()));
        });
      });
      req.end(body);
    });
  return senderFor(url.protocol).then((send) => attempt(send, false));
}

/** The pair `ApiClientOptions.http` takes. */
export const plainHttp = { fetch: plainFetch as unknown as typeof fetch, Headers: PlainHeaders as unknown as typeof Headers };
