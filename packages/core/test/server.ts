// Test support: a local HTTP server with hand-written routes, for answers the real server never gives (and a storage
// on another origin); a token and an account builder.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '../src/contract';

export interface Request {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  /** Parsed JSON when the body is JSON, else the raw bytes. */
  body: unknown;
  raw: Buffer;
}

export type Reply = { status?: number; json?: unknown; text?: string } | undefined;
export type Route = (req: Request, res: ServerResponse) => Reply | 'handled' | Promise<Reply | 'handled'>;

export interface TestServer {
  url: string;
  requests: Request[];
  close(): Promise<void>;
}

/**
 * Routes are keyed "METHOD /path"; a key ending in "*" matches the path's prefix. A route returns
 * { status, json } (status defaults to 200), or 'handled' when it answered itself.
 */
export async function startServer(routes: Record<string, Route>): Promise<TestServer> {
  const requests: Request[] = [];
  const server = createServer(async (req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const key = `${req.method} ${u.pathname}`;
    const route = routes[key] ?? Object.entries(routes).find(([k]) => k.endsWith('*') && key.startsWith(k.slice(0, -1)))?.[1];
    const chunks: Buffer[] = [];
    try {
      for await (const c of req) chunks.push(c as Buffer);
    } catch {
      return; // the client went away mid-body (a cancelled upload)
    }
    const raw = Buffer.concat(chunks);
    let body: unknown = raw;
    if ((req.headers['content-type'] ?? '').includes('json') && raw.length) {
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {}
    }
    const request: Request = {
      method: req.method ?? '',
      path: u.pathname,
      query: Object.fromEntries(u.searchParams),
      headers: req.headers,
      body,
      raw,
    };
    requests.push(request);
    if (!route)
      return void res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { code: 'not_found', message: `No route ${key}` } }));
    const out = await route(request, res);
    if (out === 'handled') return;
    const status = out?.status ?? 200;
    if (out?.text !== undefined) return void res.writeHead(status, { 'content-type': 'text/plain' }).end(out.text);
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(out?.json ?? { ok: true }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const b64url = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

/** A session token shaped like the server's: the client only reads `exp`. */
export function jwt(expSeconds: number, extra: Record<string, unknown> = {}): string {
  return `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ sub: 'user-1', exp: expSeconds, ...extra })}.c2lnbmF0dXJl`;
}

let n = 0;
const id = (p: string) => `${p}${(++n).toString(36).padStart(6, '0')}`;

export const make = {
  client: (o: Partial<Client> = {}): Client => ({
    stamp: id('c'),
    name: 'Acme Labs',
    plan: 'Individual',
    choice: 'Cloud',
    active: 1,
    ...o,
  }),
};
