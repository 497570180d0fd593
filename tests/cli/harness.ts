// Starts the real server (built, as `portal` is, once per run by cli/setup.ts) on a free port with a fresh data folder,
// and runs dist/portal.js as a child process with its own HOME, so the config file lands in a temp folder.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { PORTAL, SERVER } from './setup';

export { PORTAL, ROOT, build } from './setup';

export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => res(port));
    });
  });
}

/** Small HTTP servers a file stands up beside the real one (one that never answers, one that fails, ...). */
export function localServers() {
  const servers: Server[] = [];
  return {
    /** Starts one on a free port; resolves to its base URL. */
    async listen(handler: RequestListener): Promise<string> {
      const s = createHttpServer(handler);
      servers.push(s);
      await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
      return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
    },
    /** Ends them all, their open connections too (a server that never answers holds them). */
    close() {
      for (const s of servers) {
        s.closeAllConnections();
        s.close();
      }
    },
  };
}

export interface Started {
  url: string;
  dir: string;
  stop(): Promise<void>;
}

/** Starts the built server; `env` adds to its environment (e.g. PORTAL_WEBHOOK_ALLOW_PRIVATE=1 for a receiver here). */
export async function startServer(env: Record<string, string> = {}): Promise<Started> {
  const dir = await mkdtemp(join(tmpdir(), 'portal-cli-e2e-'));
  const child: ChildProcess = spawn(process.execPath, [SERVER], {
    env: {
      ...process.env,
      // The server takes a free port itself and names it: a port chosen here could be taken by another file's server
      // before this one binds it, and the health check below would then be answered by that one.
      PORT: '0',
      PUBLIC_URL: undefined,
      HOST: '127.0.0.1',
      DATA_DIR: join(dir, 'data'),
      METRICS_PORT: '0',
      PORTAL_DRAIN_S: '0',
      // An answer outside its call's contract is a 500, which fails the command that asked for it.
      PORTAL_CHECK_ANSWERS: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  const deadline = Date.now() + 120_000;
  let url = '';
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server stopped while starting:\n${log}`);
    const named = /^Portal running at (\S+)$/m.exec(log);
    if (named) url = `http://127.0.0.1:${new URL(named[1]).port}`;
    try {
      if (url && (await fetch(`${url}/api/health`)).ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`The server did not answer in time:\n${log}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    dir,
    async stop() {
      if (child.exitCode === null) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([gone, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI (or another copy of it: `bin`) as a user whose home is `home`. */
export function portal(
  home: string,
  api: string,
  args: string[],
  opts: { stdin?: string; cwd?: string; env?: Record<string, string>; bin?: string } = {},
): Promise<Result> {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, [opts.bin ?? PORTAL, ...args], {
      cwd: opts.cwd ?? home,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        XDG_CONFIG_HOME: join(home, '.config'),
        PORTAL_API: api,
        PORTAL_POLL_MS: '300',
        ...opts.env,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', rej);
    child.on('close', (code) => res({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(opts.stdin ?? '');
  });
}

/** `portal fit` on a three-column table the Individual plan takes whole: 3 inputs, 2 outputs, 1 target; then `more`. */
export const fitArgs = (upload: string, name: string, ...more: string[]): string[] => [
  'fit',
  ...['--upload', upload, '--name', name],
  ...['--inputs', '3', '--outputs', '2', '--target', '1'],
  ...more,
];

/** A new account on `base` with a client API key, as a Python or other script would use it. */
export async function keyAccount(base: string, who: string): Promise<{ client: string; token: string; session: string; pack: string }> {
  const api = async (method: string, path: string, token: string | null, body?: unknown) => {
    const r = await fetch(`${base}${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
    return r.json();
  };
  const up = await api('POST', '/api/user/signup', null, {
    email: `${who}@example.com`,
    username: `${who}_user`,
    password: 'Secret-123!',
    name: `${who} Company`,
  });
  const client = up.login.client.list[0].stamp;
  const { apikey } = await api('PUT', '/api/client/apikey/item', up.token, { client, name: who });
  return { client, token: apikey.token, session: up.token, pack: apikey.pack.linux64 };
}

export interface CliFixture {
  readonly server: Started;
  readonly home: string;
  /** Runs `portal` as this file's user against this file's server. */
  run(args: string[], opts?: Parameters<typeof portal>[3]): Promise<Result>;
  /** A call sent as `token` (JSON body when given), as another door would: its JSON answer. */
  post(path: string, token: string, body?: unknown): Promise<any>;
  /** The session token `portal` stored for this server, if any. */
  stored(): Promise<string | undefined>;
}

/** One test file's CLI user: the CLI built, a server started and a fresh home, all gone after the file. */
export function cliFixture(name: string): CliFixture {
  let server: Started | undefined;
  let home = '';
  beforeAll(async () => {
    server = await startServer();
    home = await mkdtemp(join(tmpdir(), `portal-${name}-`));
  });
  afterAll(async () => {
    await server?.stop();
    if (home) await rm(home, { recursive: true, force: true });
  });
  const fixture: CliFixture = {
    get server() {
      if (!server) throw new Error('The server starts in beforeAll.');
      return server;
    },
    get home() {
      return home;
    },
    run: (args, opts) => portal(home, fixture.server.url, args, opts),
    async post(path, token, body) {
      const res = await fetch(new URL(path, fixture.server.url), {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return res.json();
    },
    async stored() {
      const config = JSON.parse(await readFile(join(home, '.config', 'portal', 'config.json'), 'utf8'));
      return config.hosts?.[new URL(fixture.server.url).origin]?.token as string | undefined;
    },
  };
  return fixture;
}
