// `client.preview(upload)` of the Python SDK (the served wheel, installed offline in a fresh venv) against the built server.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, keyAccount, startServer, type Started } from './harness';

const run = promisify(execFile);
let server: Started;
let dir: string;

beforeAll(async () => {
  server = await startServer();
  dir = await mkdtemp(join(tmpdir(), 'portal-python-preview-'));
}, 180_000);
afterAll(async () => {
  await server?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the Python client sees the data', () => {
  it('client.preview(upload) answers rows and columns for a table, a .txt and a model file; client.projection(run) the map', async () => {
    const { token, pack } = await keyAccount(server.url, 'seeing');
    const venv = join(dir, 'venv');
    await run('python3', ['-m', 'venv', venv]);
    await run(join(venv, 'bin/pip'), ['install', '--no-index', '--disable-pip-version-check', `${server.url}/api/pack/${pack}`], {
      env: { ...process.env, PIP_NO_INDEX: '1' },
    });
    const tests = await run(join(venv, 'bin/python'), [join(ROOT, 'packages/server/python/tests/test_preview.py')], {
      cwd: dir,
      timeout: 240_000,
      env: { PATH: process.env.PATH ?? '', PORTAL_API: server.url, PORTAL_TOKEN: token, PORTAL_TEST_DATA: dir },
    }).catch((e: { stdout: string; stderr: string }) => {
      throw new Error(`Python tests failed:\n${e.stderr}\n${e.stdout}`);
    });
    expect(tests.stderr).toMatch(/Ran 4 tests[\s\S]*\nOK/);
  }, 300_000);
});
