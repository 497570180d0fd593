// The Python SDK (the wheel the installer command serves) against the built server: installed with pip from the
// server into a fresh venv, offline, then its tests (packages/server/python/tests) run against a new Enterprise
// account's key and owner, a server that never answers, a closed port and a failing server.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PYTHON_EXAMPLE_PROJECT, pythonExample } from '@portal/core';
import { ROOT, freePort, localServers, startServer, type Started } from './harness';

const run = promisify(execFile);
let server: Started;
let dir: string;
const helpers = localServers();
let venv: Promise<string> | undefined;

async function api(method: string, path: string, token: string | null, body?: unknown) {
  const r = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(r.status, `${method} ${path}`).toBe(200);
  return r.json();
}

/** A new account (password Secret-123!) with an API key: its session token, account id and key. */
async function account(who: string, company: string) {
  const up = await api('POST', '/api/user/signup', null, {
    email: `${who}@example.com`,
    username: `${who}_user`,
    password: 'Secret-123!',
    name: company,
  });
  const client: string = up.login.client.list[0].stamp;
  const { apikey } = await api('PUT', '/api/client/apikey/item', up.token, { client, name: who });
  return { token: up.token as string, client, apikey };
}

/** A fresh venv with the client pip installs from the server's wheel, offline (made once per file). */
function installed(pack: string): Promise<string> {
  venv ??= (async () => {
    const at = join(dir, 'venv');
    await run('python3', ['-m', 'venv', at]);
    const pip = await run(join(at, 'bin/pip'), ['install', '--no-index', '--disable-pip-version-check', `${server.url}/api/pack/${pack}`], {
      env: { ...process.env, PIP_NO_INDEX: '1' },
    });
    expect(pip.stdout).toContain('Successfully installed portal-client');
    return at;
  })();
  return venv;
}

beforeAll(async () => {
  server = await startServer();
  dir = await mkdtemp(join(tmpdir(), 'portal-python-'));
}, 180_000);
afterAll(async () => {
  helpers.close();
  await server?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the Python client', () => {
  it('installs from the served wheel in a fresh venv (offline) and passes its tests against the server', async () => {
    const up = await account('py', 'Python Co Ltd');
    const { client, apikey } = up;
    await api('PUT', '/api/integration/apikey/item', up.token, { client, name: 'Embeddings', service: 'OpenAI', token: 'sk-test' });
    // Enterprise: files up to 10 MB, so the memory test sends 100 MB in one upload (ten files).
    execFileSync(process.execPath, [join(ROOT, 'packages/server/dist/main.js'), 'admin', 'set-plan', client, 'Enterprise'], {
      env: { ...process.env, DATA_DIR: join(server.dir, 'data') },
    });

    const python = join(await installed(apikey.pack.linux64), 'bin/python');

    const silent = await helpers.listen(() => {});
    const failing = await helpers.listen((_req, res) =>
      res
        .writeHead(503, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { code: 'unavailable', message: 'Down for maintenance' } })),
    );
    const closed = `http://127.0.0.1:${await freePort()}`;
    const tests = await run(python, [join(ROOT, 'packages/server/python/tests/test_client.py')], {
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

  it("runs the key page's example unchanged in an empty folder, twice, with one project", async () => {
    const up = await account('example', 'Example Co Ltd');
    const { client, apikey } = up;
    const python = join(await installed(apikey.pack.linux64), 'bin/python');
    // The text the key page shows once the token is revealed (its origin is the server's), as it is copied.
    const example = pythonExample(server.url, apikey.token, client);
    const folder = await mkdtemp(join(tmpdir(), 'portal-example-'));
    try {
      for (const time of ['first', 'second']) {
        const out = await run(python, ['-c', example], {
          cwd: folder,
          timeout: 240_000,
          env: { PATH: process.env.PATH ?? '' },
        }).catch((e: { stdout: string; stderr: string }) => {
          throw new Error(`The example failed the ${time} time:\n${e.stderr}\n${e.stdout}`);
        });
        expect(out.stdout).toContain(`Project: ${PYTHON_EXAMPLE_PROJECT} `);
        expect(out.stdout).toMatch(/^Upload: .+ Ready$/m);
        expect(out.stdout).toMatch(/^Request: .+ Finished$/m);
        const score = /^Held-out accuracy: ([\d.]+) on (\d+) rows$/m.exec(out.stdout);
        expect(score, out.stdout).not.toBeNull();
        // Three species told apart by their petals: well above a guess (1 in 3).
        expect(Number(score![1])).toBeGreaterThan(0.6);
        expect(out.stderr).toContain('flowers.csv is uploaded as a JSON table');
      }
      const { bucket: projects } = await api('GET', `/api/bucket/item?active=1&client=${client}`, up.token);
      expect(projects.list.map((p: { name: string }) => p.name)).toEqual([PYTHON_EXAMPLE_PROJECT]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 600_000);
});
