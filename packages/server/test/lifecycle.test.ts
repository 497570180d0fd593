// How the server meets clients and operators over time: request ids that follow a request, the drain a SIGTERM
// starts, and the deadlines slow clients get (upload bytes excepted while they keep moving).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request, type IncomingMessage } from 'node:http';
import { connect, createServer, type AddressInfo } from 'node:net';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ERROR_CODES } from '@portal/core';
import { CALLS } from '@portal/core/contract/table';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { CLOSE_GRACE_MS, CLOSING_MESSAGE, REQUEST_TIMEOUT_MESSAGE } from '../src/lifecycle';
import {
  call,
  fitData,
  freshDataDir,
  serverRoot,
  sha256,
  signup,
  startServer,
  testSecret,
  uploadFiles,
  waitFor,
  type TestServer,
} from './harness';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Keeps connections open between requests, as a balancer does. */
const keepAlive = new Agent({ keepAlive: true });
afterAll(() => keepAlive.destroy());

/** One request over node:http (fetch hides the Connection header), its answer read whole. */
function get(url: string, headers: Record<string, string> = {}): Promise<{ res: IncomingMessage; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, agent: keepAlive }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ res, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** What a raw TCP client gets back after sending `text` (and nothing more) until the server closes the connection. */
function rawExchange(url: string, text: string): Promise<{ answer: string; ms: number }> {
  const { hostname, port } = new URL(url);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(text));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (d) => (answer += d));
    socket.on('close', () => resolve({ answer, ms: Date.now() - started }));
    socket.on('error', reject);
  });
}

describe('request ids', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    [a, b] = await Promise.all([startServer('embedded', { worker: false }), startServer('embedded', { worker: false })]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('answers every request with an id unique across processes, or the well-formed one it was given', async () => {
    const ids = await Promise.all([a, b, a, b].map(async (s) => (await fetch(new URL('/api/health', s.url))).headers.get('x-request-id')));
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(4);
    const given = 'lb-7f3a.2026-11-26:42';
    expect((await fetch(new URL('/api/health', a.url), { headers: { 'x-request-id': given } })).headers.get('x-request-id')).toBe(given);
    // An id that would break a log line or a header, or is too long, is replaced rather than trusted.
    for (const bad of ['has space', 'x'.repeat(200), '"quoted"', '<script>']) {
      const id = (await fetch(new URL('/api/health', a.url), { headers: { 'x-request-id': bad } })).headers.get('x-request-id');
      expect(id).toMatch(UUID);
    }
    // Errors carry it too.
    const missing = await fetch(new URL('/api/bucket/item', a.url), { headers: { 'x-request-id': 'trace-401' } });
    expect(missing.status).toBe(401);
    expect(missing.headers.get('x-request-id')).toBe('trace-401');
  });

  it("puts the id on the request's log lines; LOG_LEVEL=debug adds its queries with their times and its jobs' steps", async () => {
    const lines: string[] = [];
    const dataDir = await freshDataDir();
    const config = loadConfig(
      { JWT_SECRET: testSecret() },
      { dataDir, port: 0, host: '127.0.0.1', logLevel: 'debug', metricsPort: null, drainS: 0, authRateLimit: 1000, checkAnswers: true },
    );
    const built = await buildApp(config, { logStream: { write: (l: string) => lines.push(l) } });
    try {
      const url = await built.app.listen({ port: 0, host: '127.0.0.1' });
      const res = await call(url, 'ready', { headers: { 'x-request-id': 'debug-trace-1' } });
      expect(res.headers.get('x-request-id')).toBe('debug-trace-1');
      const mine = await waitFor(async () => {
        const found = lines.map((l) => JSON.parse(l)).filter((l) => l.reqId === 'debug-trace-1');
        return found.some((l) => l.msg === 'request') ? found : null;
      });
      const query = mine.find((l) => l.msg === 'query');
      expect(query).toMatchObject({ level: 20 });
      expect(query.sql).toMatch(/select/i);
      expect(typeof query.ms).toBe('number');
      expect(mine.find((l) => l.msg === 'request')).toMatchObject({ res: { statusCode: res.status }, call: '/api/ready' });

      // An upload's analysis: the worker's lines about the job carry the id of the call that queued it.
      const A = await signup(url, 'debugjobs');
      const project = (await call(url, 'bucketCreate', { token: A.token, body: { client: A.client, name: 'Debug' } })).body.bucket.stamp;
      await uploadFiles(url, A.token, project, [{ name: 'd.json', bytes: fitData(20, 2) }]);
      const parsed = () => lines.map((l) => JSON.parse(l));
      const done = await waitFor(async () => parsed().find((l) => /^Job analyze \S+: done$/.test(l.msg)));
      expect(done).toMatchObject({ level: 20, outcome: 'done', ms: expect.any(Number) });
      const queuedBy = parsed().filter((l) => l.reqId === done.reqId);
      expect(queuedBy.find((l) => l.msg === 'request')).toMatchObject({ call: '/api/upload/finish' });
      expect(queuedBy.some((l) => /^Job analyze \S+: started$/.test(l.msg))).toBe(true);
    } finally {
      await built.close();
    }
  });
});

describe('the built server at start', () => {
  const main = join(serverRoot, 'dist/main.js');
  const start = (env: Record<string, string>) =>
    spawnSync(process.execPath, [main], { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, encoding: 'utf8', timeout: 60_000 });

  it.skipIf(!existsSync(main))('refuses a port in use or a weak key at once, naming it, before the database is opened', async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = String((taken.address() as AddressInfo).port);
    const dataDir = join(await mkdtemp(join(tmpdir(), 'portal-start-')), 'data');
    try {
      const busy = start({ DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: port, METRICS_PORT: '0' });
      expect(busy.status).toBe(1);
      expect(busy.stderr.trim()).toBe(
        `PORT ${port} on 127.0.0.1 is already in use by another program: stop it, or set PORT to a free port.`,
      );
      const metrics = start({ DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', METRICS_PORT: port });
      expect(metrics.stderr.trim()).toBe(
        `METRICS_PORT ${port} on 127.0.0.1 is already in use by another program: stop it, or set METRICS_PORT to a free port.`,
      );
      // Nothing was opened or migrated.
      expect(existsSync(join(dataDir, 'db'))).toBe(false);
      const weak = start({ DATA_DIR: join(dataDir, 'other'), JWT_SECRET: 'abc' });
      expect(weak.status).toBe(1);
      expect(weak.stderr).toMatch(/^JWT_SECRET must be at least 32 bytes long \(it has 3\)/);
      expect(existsSync(join(dataDir, 'other'))).toBe(false);
    } finally {
      taken.close();
      await rm(dirname(dataDir), { recursive: true, force: true });
    }
  });
});

describe('drain on stop', () => {
  it('fails readiness at once with not_ready, keeps serving with Connection: close, then closes the port', async () => {
    const srv = await startServer('embedded', { worker: false, drainS: 1.5 });
    const before = await get(new URL('/api/health', srv.url).href);
    expect(before.res.headers.connection).toBe('keep-alive');
    const started = Date.now();
    const closing = srv.built.close({ drain: true });
    try {
      const ready = await get(new URL('/api/ready', srv.url).href);
      expect(ready.res.statusCode).toBe(503);
      expect(JSON.parse(ready.body).error).toMatchObject({ code: ERROR_CODES.notReady, message: expect.stringMatching(/shutting down/) });
      // Still serving during the drain: answers, each closing its connection so the next goes elsewhere.
      const during = await get(new URL('/api/health', srv.url).href);
      expect(during.res.statusCode).toBe(200);
      expect(during.res.headers.connection).toBe('close');
      await closing;
      expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
      await expect(get(new URL('/api/health', srv.url).href)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    } finally {
      await closing.catch(() => {});
      await srv.close();
    }
  });
});

describe('closing the port after the drain', () => {
  /** A raw connection to the server, and the answers it reads. */
  const open = async (url: string) => {
    const { port } = new URL(url);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString()));
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    /** Writes `bytes` and reads the answer they complete. */
    const send = async (bytes: string) => {
      const from = text.length;
      socket.write(bytes);
      await waitFor(async () => /\r\n\r\n[\s\S]*\}/.test(text.slice(from)), 10_000);
      return text.slice(from);
    };
    const ask = (path: string) => send(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    return { socket, send, ask, ended };
  };

  it('serves the request of a connection accepted before the port closed; a late one on a kept-alive connection gets the product’s 503 with Connection: close', async () => {
    const srv = await startServer('embedded', { worker: false, drainS: 0.5 });
    // Kept alive from before the stop, idle through the drain.
    const kept = await open(srv.url);
    expect(await kept.ask('/api/health')).toMatch(/^HTTP\/1\.1 200/);
    const closing = srv.built.close({ drain: true });
    try {
      // Accepted while the port is open, its request sent only once the process has stopped accepting.
      const fresh = await open(srv.url);
      await waitFor(async () => srv.built.services.lifecycle.closed, 10_000);
      const served = await fresh.ask('/api/health');
      expect(served).toMatch(/^HTTP\/1\.1 200/);
      expect(served.toLowerCase()).toContain('connection: close');
      const late = await kept.ask('/api/health');
      expect(late).toMatch(/^HTTP\/1\.1 503/);
      expect(late.toLowerCase()).toContain('connection: close');
      expect(JSON.parse(late.slice(late.indexOf('{')))).toEqual({ error: { code: ERROR_CODES.notReady, message: CLOSING_MESSAGE } });
      await Promise.all([kept.ended, fresh.ended]);
      await closing;
    } finally {
      await closing.catch(() => {});
      await srv.close();
    }
  });

  it('closes the connection of a request already running when the drain starts', async () => {
    const srv = await startServer('embedded', { worker: false, drainS: 0.5 });
    const kept = await open(srv.url);
    // Its headers in, its body still to come: running when the drain starts.
    const begun = new Promise((resolve) => srv.built.app.server.once('request', resolve));
    kept.socket.write(
      `POST ${CALLS.signup.path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n`,
    );
    await begun;
    const closing = srv.built.close({ drain: true });
    try {
      const answer = await kept.send('{}');
      expect(answer).toMatch(/^HTTP\/1\.1 400/);
      expect(answer.toLowerCase()).toContain('connection: close');
      await kept.ended;
      await closing;
    } finally {
      await closing.catch(() => {});
      await srv.close();
    }
  });

  it('serves a request that arrived while the process was too busy to read it before the idle check ran', async () => {
    // A shutdown deadline longer than the busy spell, which would otherwise cut every connection off itself.
    const srv = await startServer('embedded', { worker: false, drainS: 0.2, shutdownS: 30 });
    const closing = srv.built.close({ drain: true });
    try {
      const fresh = await open(srv.url);
      await waitFor(async () => srv.built.services.lifecycle.closed, 10_000);
      // The request reaches the socket while the process is busy past the idle check's time (a loaded machine, here
      // a long callback): the check's timer then runs before the socket is read, and must not take the connection
      // for an idle one.
      let served = '';
      fresh.socket.on('data', (d: Buffer) => (served += d.toString()));
      await new Promise<void>((resolve) =>
        setImmediate(() => {
          fresh.socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n');
          const until = Date.now() + CLOSE_GRACE_MS * 2.5;
          while (Date.now() < until);
          resolve();
        }),
      );
      await fresh.ended;
      expect(served).toMatch(/^HTTP\/1\.1 200/);
      expect(served.toLowerCase()).toContain('connection: close');
      await closing;
    } finally {
      await closing.catch(() => {});
      await srv.close();
    }
  });
});

describe('slow clients', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startServer('embedded', { worker: false, headersTimeoutS: 1, requestTimeoutS: 1, uploadIdleTimeoutS: 2 });
  });
  afterAll(async () => srv?.close());

  it('cuts off a client that never finishes its headers', async () => {
    const { answer, ms } = await rawExchange(srv.url, 'GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(ms).toBeLessThan(5000);
  });

  it('answers 408 to a body that does not arrive in time', async () => {
    const { answer, ms } = await rawExchange(
      srv.url,
      'POST /api/user/signup HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(answer).toContain(REQUEST_TIMEOUT_MESSAGE);
    expect(ms).toBeLessThan(5000);
  });

  it('lets an upload take longer than the request deadline while its bytes keep moving', async () => {
    const A = await signup(srv.url, 'slowupload');
    const project = (await call(srv.url, 'bucketCreate', { token: A.token, body: { client: A.client, name: 'Slow' } })).body.bucket.stamp;
    const upload = (await call(srv.url, 'rendCreate', { token: A.token, body: { bucket: project, name: 'slow.json' } })).body.rend.stamp;
    const bytes = Buffer.from(JSON.stringify(Array.from({ length: 40 }, (_, i) => [i, i * 2])));
    const reg = await call(srv.url, 'uploadRegister', {
      token: A.token,
      body: { rend: upload, name: 'slow.json', file: { name: 'slow.json', size: bytes.length, checksum: sha256(bytes) } },
    });
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(reg.body.upload.url, { method: 'PUT', headers: { 'content-length': bytes.length } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      // Four pieces 0.6 s apart: 1.8 s in all, past the 1 s request deadline, never idle for the 2 s upload limit.
      const pieces = [0, 1, 2, 3].map((i) => bytes.subarray((i * bytes.length) / 4, ((i + 1) * bytes.length) / 4));
      const send = (i: number) => {
        if (i === pieces.length) return req.end();
        req.write(pieces[i]);
        setTimeout(() => send(i + 1), 600);
      };
      send(0);
    });
    expect(status).toBe(200);
  });
});
