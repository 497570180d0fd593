// `portal webhooks` against the built server (private addresses allowed) and a real receiver on this machine: an
// endpoint made, its test event verified with the Standard Webhooks library, retried after a 500, logged, delivered
// again with the same webhook-id; listen forwarding a real event to a local URL and ending on Ctrl+C with 130; and
// the Python client's webhooks (the served wheel in a fresh venv) against the same server.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { closeReceivers, webhookReceiver } from '../receiver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_MESSAGES } from '@portal/core';
import { keyAccount, PORTAL, portal, ROOT, startServer, type Result, type Started } from './harness';

const EMAIL = 'hooks@example.com';
const PW = 'Secret-123!';
let server: Started;
let home: string;

async function until<T>(what: string, check: () => T | Promise<T>, timeoutMs = 60_000): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const cli = (args: string[], stdin?: string) => portal(home, server.url, args, stdin === undefined ? {} : { stdin });
const json = <T = any>(r: Result): T => {
  if (r.code !== 0) throw new Error(`exit ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
};

beforeAll(async () => {
  server = await startServer({ PORTAL_WEBHOOK_ALLOW_PRIVATE: '1' });
  home = await mkdtemp(join(tmpdir(), 'portal-webhooks-'));
  const up = await cli(
    ['signup', '--email', EMAIL, '--username', 'hooks_user', '--name', 'Hooks Co', '--password-stdin', '--accept-terms'],
    `${PW}\n`,
  );
  if (up.code !== 0) throw new Error(up.stderr);
}, 300_000);
afterAll(async () => {
  closeReceivers();
  await server?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

describe('portal webhooks', () => {
  it('creates an endpoint whose test event the library verifies, retried after a 500, logged, redelivered; then pause, rotate, rename, remove', async () => {
    const r = await webhookReceiver([500]);
    const bad = await cli(['webhooks', 'create', '--url', r.url, '--events', 'run.finished,run.done']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(WEBHOOK_MESSAGES.unknownEvent('run.done'));

    const made = await cli(['webhooks', 'create', '--url', r.url, '--events', 'run.finished,run.failed', '--name', 'Receiver', '--json']);
    const endpoint = json<{ id: string; status: string; secret: string; events: string[] }>(made);
    expect(endpoint).toMatchObject({ status: 'active', events: ['run.finished', 'run.failed'] });
    expect(endpoint.secret).toMatch(/^whsec_/);
    expect(made.stderr).toContain(WEBHOOK_MESSAGES.secretOnce);

    const listed = json<Array<{ id: string; secret?: string }>>(await cli(['webhooks', 'list', '--json']));
    expect(listed.map((e) => e.id)).toEqual([endpoint.id]);
    expect(listed[0].secret).toBeUndefined();
    const table = await cli(['webhooks', 'list']);
    expect(table.stdout).toMatch(/Receiver\s+\S+\s+http:\/\/127\.0\.0\.1:\d+\/hooks\s+run\.finished,run\.failed\s+Active\s+Never/);

    const sent = json<{ id: string; status: string }>(await cli(['webhooks', 'test', endpoint.id, '--json']));
    expect(sent.status).toBe('pending');
    await until('two attempts', () => r.got.length >= 2);
    const wh = new Webhook(endpoint.secret);
    for (const attempt of r.got.slice(0, 2)) {
      expect(attempt.headers['webhook-id']).toBe(sent.id);
      const event = wh.verify(attempt.body, attempt.headers as Record<string, string>) as { type: string; data: Record<string, unknown> };
      expect(event.type).toBe('webhook.test');
    }

    const log = await until('the delivery to be delivered', async () => {
      const rows = json<Array<{ id: string; status: string }>>(await cli(['webhooks', 'deliveries', endpoint.id, '--json']));
      return rows[0]?.status === 'delivered' ? rows : null;
    });
    expect(log.map((d) => d.id)).toEqual([sent.id]);
    const one = json<{ attempts: Array<{ status: number; durationMs: number; answer: string }>; body: string }>(
      await cli(['webhooks', 'delivery', sent.id, '--json']),
    );
    expect(one.attempts.map((a) => [a.status, a.answer])).toEqual([
      [500, 'answer 500'],
      [200, 'answer 200'],
    ]);
    expect(JSON.parse(one.body).type).toBe('webhook.test');
    const attempts = await cli(['webhooks', 'delivery', sent.id]);
    expect(attempts.stdout).toMatch(/HTTP 500\s+\d+ ms\s+answer 500/);

    const again = await cli(['webhooks', 'redeliver', sent.id]);
    expect(again.stderr).toContain(WEBHOOK_MESSAGES.redelivered);
    await until('the redelivery', () => r.got.length >= 3);
    expect(r.got[2].headers['webhook-id']).toBe(sent.id);

    expect(json<{ status: string }>(await cli(['webhooks', 'pause', endpoint.id, '--json'])).status).toBe('paused');
    expect((await cli(['webhooks', 'resume', endpoint.id])).stderr).toContain(WEBHOOK_MESSAGES.resumed);
    const rotated = json<{ secret: string }>(await cli(['webhooks', 'rotate', endpoint.id, '--json']));
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(endpoint.secret);
    const shown = await cli(['webhooks', 'show', endpoint.id]);
    expect(shown.stdout).toMatch(/Old secret signs until\t\d{4}-/);
    expect(shown.stdout).not.toContain('whsec_');
    expect(json<{ name: string }>(await cli(['webhooks', 'rename', endpoint.id, '--name', 'Renamed', '--json'])).name).toBe('Renamed');

    // Shell completion offers the endpoints' ids with their names (`portal webhooks show <Tab>`).
    expect((await cli(['__complete', 'webhooks'])).stdout).toBe(`${endpoint.id}\tRenamed\n`);

    const refused = await cli(['webhooks', 'remove', endpoint.id]);
    expect(refused.code).toBe(2);
    expect((await cli(['webhooks', 'remove', endpoint.id, '--yes'])).code).toBe(0);
    const gone = await cli(['webhooks', 'show', endpoint.id]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain(WEBHOOK_MESSAGES.notFound);
  }, 180_000);

  it('listen forwards a real event, signed with the stream secret, to a local URL, a line per event, and Ctrl+C exits 130', async () => {
    const local = await webhookReceiver();
    const child = spawn(process.execPath, [PORTAL, 'webhooks', 'listen', '--forward-to', local.url, '--events', 'upload.ready'], {
      cwd: home,
      env: { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, '.config'), PORTAL_API: server.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((ok) => child.on('exit', (code) => ok(code)));
    try {
      const secret = (await until('the stream to be ready', () => /signing secret is (whsec_\S+)/.exec(stderr)))[1];
      expect(stderr).toContain(`Ready! Forwarding upload.ready to ${local.url}`);

      const project = json<{ id: string }>(await cli(['projects', 'create', '--name', 'Hooks', '--json'])).id;
      await writeFile(join(home, 'rows.json'), JSON.stringify(Array.from({ length: 20 }, (_, i) => [i, i % 3, i % 5, i % 7])));
      const pushed = await cli(['uploads', 'push', join(home, 'rows.json'), '--project', project, '--wait']);
      expect(pushed.code, pushed.stderr).toBe(0);

      await until('the forwarded event', () => local.got.length >= 1);
      const event = new Webhook(secret).verify(local.got[0].body, local.got[0].headers as Record<string, string>) as {
        type: string;
        data: { id: string; project: string };
      };
      expect(event.type).toBe('upload.ready');
      expect(event.data.project).toBe(project);
      await until('the line for it', () => /upload\.ready\s+\S+\s+-> 200 \(\d+ ms\)/.test(stdout));
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(130);
  }, 180_000);

  it('the Python client verifies deliveries and manages endpoints (the served wheel, in a fresh venv)', async () => {
    const run = promisify(execFile);
    const { pack } = await keyAccount(server.url, 'pyhooks');
    const venv = join(home, 'venv');
    await run('python3', ['-m', 'venv', venv]);
    await run(join(venv, 'bin/pip'), ['install', '--no-index', '--disable-pip-version-check', `${server.url}/api/pack/${pack}`], {
      env: { ...process.env, PIP_NO_INDEX: '1' },
    });
    // What the Standard Webhooks library signs, for the Python side to verify.
    const secret = `whsec_${Buffer.from('a secret of thirty-two bytes!!!!').toString('base64')}`;
    const body = JSON.stringify({ type: 'webhook.test', timestamp: new Date().toISOString(), data: { test: true } });
    const at = new Date();
    const signature = new Webhook(secret).sign('msg_library', at, body);
    const signed = JSON.stringify({
      body,
      secret,
      headers: {
        'webhook-id': 'msg_library',
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': signature,
      },
    });
    const tests = await run(join(venv, 'bin/python'), [join(ROOT, 'packages/server/python/tests/test_webhooks.py')], {
      cwd: home,
      timeout: 240_000,
      env: {
        PATH: process.env.PATH ?? '',
        PORTAL_API: server.url,
        PORTAL_TEST_EMAIL: 'pyhooks@example.com',
        PORTAL_TEST_PASSWORD: 'Secret-123!',
        PORTAL_TEST_SIGNED: signed,
      },
    }).catch((e: { stdout: string; stderr: string }) => {
      throw new Error(`Python tests failed:\n${e.stderr}\n${e.stdout}`);
    });
    expect(tests.stderr).toMatch(/Ran 7 tests[\s\S]*\nOK/);
  }, 300_000);
});
