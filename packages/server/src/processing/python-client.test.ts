import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PYTHON_EXAMPLE_PROJECT, installCommand, pythonExample } from '@portal/core';

// The documented Python example, run for real: pip installs the wheel the built server serves, then the
// example, on a new account, writes its sample, makes its project, uploads, fits, generates and downloads with the
// API key's token.
const main = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const built = existsSync(main);
// `npm test` builds first; under CI a missing build is an error rather than a quietly skipped example.
if (!built && process.env.CI) throw new Error(`${main} does not exist: build the server before the tests.`);
if (!built) console.warn(`Skipping the Python example run: ${main} does not exist (build the server first).`);

let dir: string;
let server: ChildProcess | undefined;
let base: string;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function call<T>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const res = await fetch(base + path, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

beforeAll(async () => {
  if (!built) return;
  dir = mkdtempSync(join(tmpdir(), 'python-example-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: join(dir, 'data'),
      DATABASE_URL: '',
      STORAGE_URL: '',
      PUBLIC_URL: base,
      AUTH_RATE_LIMIT: '1000',
      METRICS_PORT: '0',
      PORTAL_DRAIN_S: '0',
    },
    stdio: 'ignore',
  });
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('The server did not start within 60 seconds.');
}, 90_000);

afterAll(async () => {
  // The server writes into the directory until it has exited: remove it after that.
  if (server && server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((resolve) => server?.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
});

describe.skipIf(!built)('the Python example against the built server', () => {
  it('installs the client with pip from the server and runs the example to a downloaded result', async () => {
    const signup = await call<{ login: { client: { list: Array<{ stamp: string }> } }; token: string }>('POST', '/api/user/signup', {
      email: 'python@example.com',
      username: 'python-user',
      password: 'Passw0rd!',
      name: 'Python Company',
    });
    // A new account: no project yet (the example makes one).
    const client = signup.login.client.list[0].stamp;
    const { apikey } = await call<{ apikey: { token: string; pack: { linux64: string } } }>(
      'PUT',
      '/api/client/apikey/item',
      { client, name: 'Python key' },
      signup.token,
    );

    const venv = join(dir, 'venv');
    execFileSync('python3', ['-m', 'venv', venv]);
    const pip = installCommand(base, apikey.pack.linux64).replace(/^pip install "(.*)"$/, '$1');
    execFileSync(join(venv, 'bin/pip'), ['install', '--no-index', '--disable-pip-version-check', '-q', pip]);
    const keys = await call<{ apikey: { list: Array<{ installs: number; installedAt: number | null }> } }>(
      'GET',
      `/api/client/apikey/item?client=${client}`,
      undefined,
      signup.token,
    );
    expect(keys.apikey.list[0]).toMatchObject({ installs: 1, installedAt: expect.any(Number) });

    // The example carries its own sample (flowers.csv): the folder holds only the venv.
    // The key info page knows the account from its route, so its example names it.
    writeFileSync(join(dir, 'example.py'), pythonExample(base, apikey.token, client));
    execFileSync(join(venv, 'bin/python'), ['example.py'], { cwd: dir, env: { PATH: process.env.PATH ?? '' }, timeout: 120_000 });

    const projects = await call<{ bucket: { list: Array<{ name: string }> } }>(
      'GET',
      `/api/bucket/item?active=1&client=${client}`,
      undefined,
      signup.token,
    );
    expect(projects.bucket.list.map((p) => p.name)).toEqual([PYTHON_EXAMPLE_PROJECT]);
    const result = JSON.parse(readFileSync(join(dir, 'embeddings.json'), 'utf8')) as { embeddings: number[][] };
    // One vector per sample row, as wide as the three input columns it was fitted on.
    expect(result.embeddings).toHaveLength(90);
    expect(result.embeddings[0]).toHaveLength(3);

    // A damaged upload fails with the analysis sentence naming the row.
    writeFileSync(join(dir, 'bad.json'), '[[1, 2, 3, 4], [5, 6]]');
    const script = [
      'import portal_client',
      `c = portal_client.Client(token=${JSON.stringify(apikey.token)}, base_url=${JSON.stringify(base)}, client=${JSON.stringify(client)})`,
      'try:',
      `    c.upload(c.project("${PYTHON_EXAMPLE_PROJECT}"), "bad.json")`,
      'except portal_client.UploadFailed as e:',
      '    print(e)',
    ].join('\n');
    const out = execFileSync(join(venv, 'bin/python'), ['-c', script], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    expect(out.trim()).toBe('Row 2 has 2 values; expected 4.');
  }, 180_000);
});
