// The Python SDK (the wheel the installer command serves) against the built server: installed with pip from the
// server into a fresh venv, offline, then its tests (packages/server/python/tests) run against a new Enterprise
// account's key and owner, a server that never answers, a closed port and a failing server.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, freePort, startServer, type Started } from './harness';

const run = promisify(execFile);
let server: Started;
let dir: string;
const helpers: Server[] = [];

async function listen(handler: RequestListener): Promise<string> {
  const s = createServer(handler);
  helpers.push(s);
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  server = await startServer();
  dir = await mkdtemp(join(tmpdir(), 'portal-python-'));
}, 180_000);
afterAll(async () => {
  for (const s of helpers) {
    s.closeAllConnections();
    s.close();
  }
  await server?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the Python client', () => {
  it('installs from the served wheel in a fresh venv (offline) and passes its tests against the server', async () => {
    const api = async (method: string, path: string, token: string | null, body?: unknown) => {
      const r = await fetch(`${server.url}${path}`, {
        method,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(r.status, `${method} ${path}`).toBe(200);
      return r.json();
    };
    const up = await api('POST', '/api/user/signup', null, {
      email: 'py@example.com',
      username: 'python_user',
      password: 'Secret-123!',
      name: 'Python Co Ltd',
    });
    const client = up.login.client.list[0].stamp;
    const { apikey } = await api('PUT', '/api/client/apikey/item', up.token, { client, name: 'python' });
    await api('PUT', '/api/integration/apikey/item', up.token, { client, name: 'Embeddings', service: 'OpenAI', token: 'sk-test' });
    // Enterprise: files up to 10 MB, so the memory test sends 100 MB in one upload (ten files).
    execFileSync(process.execPath, [join(ROOT, 'packages/server/dist/main.js'), 'admin', 'set-plan', client, 'Enterprise'], {
      env: { ...process.env, DATA_DIR: join(server.dir, 'data') },
    });

    const venv = join(dir, 'venv');
    await run('python3', ['-m', 'venv', venv]);
    const pip = await run(
      join(venv, 'bin/pip'),
      ['install', '--no-index', '--disable-pip-version-check', `${server.url}/api/pack/${apikey.pack.linux64}`],
      { env: { ...process.env, PIP_NO_INDEX: '1' } },
    );
    expect(pip.stdout).toContain('Successfully installed portal-client');

    const silent = await listen(() => {});
    const failing = await listen((_req, res) =>
      res
        .writeHead(503, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { code: 'unavailable', message: 'Down for maintenance' } })),
    );
    const closed = `http://127.0.0.1:${await freePort()}`;
    const tests = await run(join(venv, 'bin/python'), [join(ROOT, 'packages/server/python/tests/test_client.py')], {
      cwd: dir,
      timeout: 540_000,
      env: {
        PATH: process.env.PATH ?? '',
        PORTAL_API: server.url,
        PORTAL_TOKEN: apikey.token,
        PORTAL_TEST_EMAIL: 'py@example.com',
        PORTAL_TEST_PASSWORD: 'Secret-123!',
        PORTAL_TEST_SILENT: silent,
        PORTAL_TEST_CLOSED: closed,
        PORTAL_TEST_FAILING: failing,
        PORTAL_TEST_DATA: dir,
      },
    }).catch((e: { stdout: string; stderr: string }) => {
      throw new Error(`Python tests failed:\n${e.stderr}\n${e.stdout}`);
    });
    expect(tests.stderr).toMatch(/Ran 27 tests[\s\S]*\nOK/);
    // The memory test's measure, for the log.
    console.log(/\(peak RSS growth[^)]*\)/.exec(tests.stderr)?.[0], /\(followed [^)]*\)/.exec(tests.stderr)?.[0]);
  }, 600_000);
});
