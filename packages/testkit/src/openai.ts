// A stub of OpenAI's embeddings endpoint for tests: `POST {base}/embeddings` answers deterministic vectors for the
// keys it knows, 401 for any other key, and on demand 429 with Retry-After, 5xx, or a slow answer. It records every
// call (with the Authorization header, so tests can check which key was sent and that it went nowhere else).
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The key the stub accepts unless told otherwise. */
export const STUB_OPENAI_KEY = 'sk-test-good-0123456789abcdef';

export interface StubCall {
  authorization: string | undefined;
  model: unknown;
  texts: string[];
  dimensions: unknown;
  /** The status the stub answered (0: it never answered). */
  status: number;
}

type Fault = { status: number; retryAfter?: string; delayMs?: number; body?: unknown; raw?: string; hang?: boolean };

export interface OpenAiStub {
  /** The base URL to set as OPENAI_BASE_URL (ends in /v1). */
  baseUrl: string;
  calls: StubCall[];
  /** Keys answered with vectors; any other gets 401. */
  keys: Set<string>;
  /** The next `times` calls are answered 429 with this Retry-After (seconds, as text). */
  rateLimit(times: number, retryAfter?: string): void;
  /** The next `times` calls (after `after` answered as usual) are answered with this 5xx status. */
  serverError(times: number, status?: number, after?: number): void;
  /** The next `times` calls answer only after `ms` (longer than the server's timeout, to test it). */
  slow(times: number, ms: number): void;
  /** The next `times` calls are never answered (the connection stays open), as a service that hangs. */
  hang(times: number): void;
  /** The next `times` calls are answered with this status and a raw body (e.g. a proxy's HTML page). */
  rawError(times: number, status: number, body: string): void;
  /** Forgets calls and faults and accepts only the default key again. */
  reset(): void;
  close(): Promise<void>;
}

/** The stub's vector for a text: unit length, the same for the same text and width on every machine. */
export function stubVector(text: string, dimensions: number): number[] {
  const v: number[] = [];
  let block = Buffer.alloc(0);
  for (let i = 0; v.length < dimensions; i++) {
    if (i % 8 === 0)
      block = createHash('sha256')
        .update(`${text}\u0000${i / 8}`)
        .digest();
    v.push(block.readInt32BE((i % 8) * 4) / 2 ** 31);
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => Number((x / norm).toPrecision(8)));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const c of req) parts.push(c as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

/** Starts the stub on `port` (any free one by default). */
export async function startOpenAiStub(port = 0): Promise<OpenAiStub> {
  const faults: Fault[] = [];
  const stub = {
    baseUrl: '',
    calls: [] as StubCall[],
    keys: new Set([STUB_OPENAI_KEY]),
    rateLimit: (times: number, retryAfter = '1') => {
      for (let i = 0; i < times; i++)
        faults.push({
          status: 429,
          retryAfter,
          body: { error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } },
        });
    },
    serverError: (times: number, status = 503, after = 0) => {
      for (let i = 0; i < after; i++) faults.push({ status: 200 });
      for (let i = 0; i < times; i++)
        faults.push({ status, body: { error: { message: 'The server is overloaded', type: 'server_error' } } });
    },
    slow: (times: number, ms: number) => {
      for (let i = 0; i < times; i++) faults.push({ status: 200, delayMs: ms });
    },
    hang: (times: number) => {
      for (let i = 0; i < times; i++) faults.push({ status: 0, hang: true });
    },
    rawError: (times: number, status: number, raw: string) => {
      for (let i = 0; i < times; i++) faults.push({ status, raw });
    },
    reset: () => {
      faults.length = 0;
      stub.calls.length = 0;
      stub.keys = new Set([STUB_OPENAI_KEY]);
    },
  } as OpenAiStub;
  const server = createServer((req, res) => {
    void (async () => {
      const text = await readBody(req);
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        if (res.destroyed) return;
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(body));
      };
      if (req.method !== 'POST' || !req.url?.endsWith('/v1/embeddings')) return send(404, { error: { message: 'Not found' } });
      let body: { model?: unknown; input?: unknown; dimensions?: unknown } = {};
      try {
        body = JSON.parse(text) as typeof body;
      } catch {
        return send(400, { error: { message: 'We could not parse the JSON body of your request.' } });
      }
      const texts = Array.isArray(body.input) ? (body.input as string[]) : [String(body.input)];
      const authorization = req.headers.authorization;
      const token = authorization?.replace(/^Bearer /, '') ?? '';
      const record = (status: number) => stub.calls.push({ authorization, model: body.model, texts, dimensions: body.dimensions, status });
      if (!stub.keys.has(token)) {
        record(401);
        const shown = token.length > 8 ? `${token.slice(0, 3)}***${token.slice(-4)}` : '***';
        return send(401, {
          error: { message: `Incorrect API key provided: ${shown}.`, type: 'invalid_request_error', code: 'invalid_api_key' },
        });
      }
      const fault = faults.shift();
      if (fault?.hang) {
        record(0);
        return;
      }
      if (fault?.raw !== undefined) {
        record(fault.status);
        res.writeHead(fault.status, { 'content-type': 'text/html' });
        return res.end(fault.raw);
      }
      if (fault?.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
      if (fault && fault.status !== 200) {
        record(fault.status);
        return send(fault.status, fault.body ?? {}, fault.retryAfter ? { 'retry-after': fault.retryAfter } : {});
      }
      const dims = typeof body.dimensions === 'number' ? body.dimensions : 1536;
      record(200);
      send(200, {
        object: 'list',
        data: texts.map((t, index) => ({ object: 'embedding', index, embedding: stubVector(t, dims) })),
        model: body.model,
        usage: { prompt_tokens: texts.length, total_tokens: texts.length },
      });
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  stub.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  stub.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return stub;
}
