// The built `portal` against the real server: a user's whole journey, a second user's isolation, the config file.
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, UPLOAD_CONTEXTS, installCommand, pythonExample } from '@portal/core';
import { fitArgs, portal, startServer, type Started } from './harness';
import { outboxMails } from '../outbox';

/** A token's shape (a JWT whose claims read) that no server issued: PORTAL_TOKEN must look like a token to be sent. */
const SHAPED_TOKEN = 'eyJhbGciOiJub25lIn0.eyJlbWFpbCI6Im5ldEBleGFtcGxlLmNvbSJ9.sig';

let server: Started;
let ada: string;
let grace: string;
const run = (home: string, args: string[], opts?: Parameters<typeof portal>[3]) => portal(home, server.url, args, opts);
const json = <T = any>(r: { stdout: string; stderr: string; code: number }): T => {
  if (r.code !== 0) throw new Error(`exit ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
};

beforeAll(async () => {
  server = await startServer();
  ada = await mkdtemp(join(tmpdir(), 'portal-ada-'));
  grace = await mkdtemp(join(tmpdir(), 'portal-grace-'));
});
afterAll(async () => {
  await server?.stop();
  for (const d of [ada, grace]) if (d) await rm(d, { recursive: true, force: true });
});

describe('portal against the real server', () => {
  const state: Record<string, string> = {};

  it('signs up, then logs in with --password-stdin; the config file is private (0600)', async () => {
    const up = await run(
      ada,
      [
        'signup',
        '--email',
        'ada@example.com',
        '--username',
        'ada_lovelace',
        '--name',
        'Analytical Engines',
        '--password-stdin',
        '--accept-terms',
      ],
      { stdin: 'Secret-123!\n' },
    );
    expect(up.code, up.stderr).toBe(0);
    // A new account is told its first step, as the web's Get started page and the terminal UI's first screen do.
    expect(up.stderr).toContain('Next: create a project: portal projects create --name NAME');
    expect((await run(ada, ['logout'])).code).toBe(0);
    expect((await run(ada, ['projects', 'list'])).code).toBe(4);
    const bad = await run(ada, ['login', '--email', 'ada@example.com', '--password-stdin'], { stdin: 'wrong' });
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim()).toBe(MESSAGES.invalidCredentials);
    const login = await run(ada, ['login', '--email', 'ada@example.com', '--password-stdin'], { stdin: 'Secret-123!\n' });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toContain('Signed in as ada@example.com (Analytical Engines)');
    expect(login.stderr).toContain('Next: create a project: portal projects create --name NAME');
    const config = join(ada, '.config', 'portal', 'config.json');
    expect((await stat(config)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(config, 'utf8')).hosts[new URL(server.url).origin].token).toMatch(/^ey/);
    const who = json(await run(ada, ['whoami', '--json']));
    expect(who).toMatchObject({ email: 'ada@example.com', username: 'ada_lovelace' });
  });

  it('creates, lists, renames and removes projects', async () => {
    const p = json(await run(ada, ['projects', 'create', '--name', 'Scratch', '--json']));
    expect(p).toMatchObject({ name: 'Scratch', runs: 0, rends: 0 });
    const list = await run(ada, ['projects', 'list']);
    expect(list.stdout).toContain(`Scratch\t${p.stamp}\t0\t0\t`);
    expect((await run(ada, ['projects', 'rename', p.stamp, '--name', 'Scratch 2'])).code).toBe(0);
    expect(json<any[]>(await run(ada, ['projects', 'list', '--json'])).map((b) => b.name)).toEqual(['Scratch 2']);
    // The names people use beside the wire's: `id` is the `stamp`, so jq's `.[0].id` is the project's id.
    expect(p.id).toBe(p.stamp);
    expect((await run(ada, ['projects', 'list', '--jq', '.[0].id'])).stdout.trim()).toBe(p.stamp);
    expect((await run(ada, ['projects', 'list', '--json', 'id,name'])).stdout).toContain(`"id": "${p.stamp}"`);
    const long = await run(ada, ['projects', 'rename', p.stamp, '--name', 'x'.repeat(61)]);
    expect(long.code).toBe(1);
    expect(long.stderr.trim()).toBe(MESSAGES.titleRename);
    expect((await run(ada, ['projects', 'remove', p.stamp])).code).toBe(2);
    expect((await run(ada, ['projects', 'remove', p.stamp, '--yes'])).code).toBe(0);
    expect((await run(ada, ['projects', 'list'])).stderr.trim()).toBe(MESSAGES.noProjects);
    const unknown = await run(ada, ['projects', 'rename', 'b_doesnotexist', '--name', 'X']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(MESSAGES.renameProject);
    state.project = json(await run(ada, ['projects', 'create', '--name', 'Churn', '--json'])).stamp;
    expect((await run(ada, ['projects', 'open', state.project])).code).toBe(0);
  });

  it('pushes a real file to Ready, and refuses bad files with SPEC messages', async () => {
    const rows = Array.from({ length: 200 }, (_, i) => [i % 7, (i * 3) % 11, (i * 5) % 13, ((i % 7) + ((i * 3) % 11)) / 10]);
    await writeFile(join(ada, 'data.json'), JSON.stringify(rows));
    const push = await run(ada, ['uploads', 'push', 'data.json', '--wait', '--json']);
    const upload = json(push);
    expect(upload).toMatchObject({ name: 'data.json', flight: 'Ready', status: 'Ready', id: upload.stamp });
    expect(push.stderr).toContain(MESSAGES.uploadSucceeded('data.json'));
    expect(push.stderr).toMatch(/data\.json \[=+\] 100%/);
    state.upload = upload.stamp;

    await writeFile(join(ada, 'bad.exe'), 'x');
    const ext = await run(ada, ['uploads', 'push', 'bad.exe']);
    expect(ext.code).toBe(1);
    expect(ext.stderr.trim()).toBe(MESSAGES.invalidFileType(UPLOAD_CONTEXTS.uploads.extensions));
    await writeFile(join(ada, 'big.json'), Buffer.alloc(1024 * 1024 + 10, 32));
    const big = await run(ada, ['uploads', 'push', 'big.json']);
    expect(big.code).toBe(1);
    expect(big.stderr.trim()).toBe(MESSAGES.fileTooLarge);
    expect(json<any[]>(await run(ada, ['uploads', 'list', '--json']))).toHaveLength(1);
    // --project by name: the server does not know it as an id, so the project is found through the account.
    const byName = json(await run(ada, ['uploads', 'push', 'data.json', '--project', 'Churn', '--json']));
    expect(byName).toMatchObject({ name: 'data.json' });
    expect((await run(ada, ['uploads', 'remove', byName.stamp, '--yes'])).code).toBe(0);
  });

  it('fit --wait follows the request to Finished, and runs download writes the result file', async () => {
    const over = await run(ada, ['fit', '--upload', state.upload, '--inputs', '4', '--outputs', '2', '--target', '1']);
    expect(over.code).toBe(1);
    expect(over.stderr.trim()).toBe(MESSAGES.planLimitInputs('Individual', 3));
    const fit = await run(ada, fitArgs(state.upload, 'First fit', '--wait', '--json'));
    const status = json(fit);
    // The fit is the request asked for; its embeddings come with it, named after it.
    expect(status.run.record).toMatchObject({ name: 'First fit', function: 'fit', state: 'Finished' });
    expect(status.generate.record).toMatchObject({ name: 'First fit (embeddings)', function: 'generate', state: 'Finished' });
    expect(status.generate.url).toBeTruthy();
    const runs = json<any[]>(await run(ada, ['runs', 'list', '--json']));
    expect(runs.map((r) => r.function).sort()).toEqual(['fit', 'generate']);
    expect(runs.every((r) => r.id === r.stamp && r.status === r.state)).toBe(true);

    const before = await readdir(ada);
    const dl = await run(ada, ['runs', 'download', status.generate.record.stamp]);
    expect(dl.code, dl.stderr).toBe(0);
    const added = (await readdir(ada)).filter((f) => !before.includes(f));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/^ensemble_result_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.json$/);
    const result = JSON.parse(await readFile(join(ada, added[0]), 'utf8'));
    expect(result).toBeTruthy();
    expect((await run(ada, ['runs', 'show', 'n_doesnotexist'])).stderr.trim()).toBe(MESSAGES.requestNotFound);
  });

  it('runs rerun starts the fit again; runs logs --follow prints its events as they come and ends when it ends; usage counts them', async () => {
    const fits = json<any[]>(await run(ada, ['runs', 'list', '--function', 'fit', '--json']));
    expect(fits.map((r) => r.function)).toEqual(['fit']);
    const made = json(await run(ada, ['runs', 'rerun', fits[0].stamp, '--json']));
    expect(made.run).toMatchObject({ function: 'fit', name: 'First fit' });
    expect(made.generate).toMatchObject({ function: 'generate', fit: made.run.stamp });
    const logs = await run(ada, ['runs', 'logs', made.run.stamp, '--follow', '--json']);
    expect(logs.code, logs.stderr).toBe(0);
    // One JSON object a line, in order, ending with the run's last state.
    const events = logs.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events.map((e) => e.seq)).toEqual([...events.map((e) => e.seq)].sort((a, b) => a - b));
    expect(events.filter((e) => e.kind === 'state').map((e) => e.data.state)).toEqual(['Pending', 'Processing', 'Finished']);
    expect(events.at(-1)).toMatchObject({ kind: 'state', message: 'Finished' });
    expect(events.some((e) => e.kind === 'progress' && e.data.epochs > 0)).toBe(true);
    const text = await run(ada, ['runs', 'logs', made.run.stamp]);
    expect(text.stdout).toMatch(/state\s+Finished\n$/);
    const gen = await run(ada, ['runs', 'show', made.generate.stamp, '--wait']);
    expect(gen.code, gen.stderr).toBe(0);
    const usage = json(await run(ada, ['usage', '--days', '7', '--json']));
    expect(usage.days).toHaveLength(7);
    expect(usage.totals).toMatchObject({ fits: 2, generates: 2 });
    expect((await run(ada, ['usage', '--days', '500'])).code).toBe(2);
  });

  it('shrink makes a quote that quotes show displays with its invoice and request', async () => {
    await writeFile(
      join(ada, 'model.py'),
      'import torch.nn as nn\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(100, 10)\n',
    );
    const py = json(await run(ada, ['uploads', 'push', 'model.py', '--wait', '--json']));
    // Creating a quote bills the account: without a terminal, only --yes confirms it.
    const unconfirmed = await run(ada, ['shrink', '--upload', py.stamp, '--name', 'S']);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr.trim()).toBe(MESSAGES.shrinkNeedsYes);
    const notPy = await run(ada, ['shrink', '--upload', state.upload, '--name', 'S', '--yes']);
    expect(notPy.stderr.trim()).toBe(MESSAGES.shrinkSingleFile);
    const made = await run(ada, ['shrink', '--upload', py.stamp, '--name', 'Shrink one', '--desc', 'first', '--wait', '--json', '--yes']);
    expect(made.stderr).toMatch(/Estimate \$0\.22 - free credit \$0\.\d\d = amount due \$0\.\d\d/);
    const q = json(made);
    expect(q.quote.record).toMatchObject({ name: 'Shrink one', desc: 'first' });
    expect(q.quote.run.state).toBe('Finished');
    const show = await run(ada, ['quotes', 'show', q.quote.record.stamp]);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain(`Invoice ID\t${q.quote.record.invoiceNum}`);
    expect(show.stdout).toMatch(/Payment portal\thttp.*\/pay\//);
    state.quote = q.quote.record.stamp;
  });

  it('manages API keys and integrations', async () => {
    const key = json(await run(ada, ['keys', 'create', '--name', 'CI', '--json']));
    expect((await run(ada, ['keys', 'create', '--name', 'Another'])).code).toBe(1);
    const info = json(await run(ada, ['keys', 'info', key.clue, '--json']));
    expect([key.id, info.id]).toEqual([key.clue, key.clue]);
    // The same installer and example as the web portal's key page.
    expect(info.installer).toBe(installCommand(server.url, key.pack.linux64));
    expect(info.token).toBeTruthy();
    const account = json<any[]>(await run(ada, ['accounts', 'list', '--json']))[0].stamp;
    expect(info.example).toBe(pythonExample(server.url, info.token, account));
    expect((await run(ada, ['keys', 'rename', key.clue, '--name', 'Prod'])).code).toBe(0);
    expect((await run(ada, ['keys', 'list'])).stdout).toMatch(/^Prod\t/);
    expect((await run(ada, ['keys', 'remove', key.clue, '--yes'])).code).toBe(0);
    expect((await run(ada, ['keys', 'list'])).stderr.trim()).toBe(MESSAGES.noApiKeys);

    const integ = json(
      await run(ada, ['integrations', 'create', '--name', 'OpenAI prod', '--token-stdin', '--json'], {
        stdin: 'sk-test-1234567890abcdef\n',
      }),
    );
    expect(integ.service).toBe('OpenAI');
    const list = await run(ada, ['integrations', 'list']);
    expect(list.stdout).toContain('OpenAI prod');
    expect(list.stdout).not.toContain('sk-test-1234567890abcdef');
    expect((await run(ada, ['integrations', 'rename', integ.clue, '--name', 'OpenAI staging'])).code).toBe(0);
    expect((await run(ada, ['integrations', 'remove', integ.clue, '--yes'])).code).toBe(0);
    expect(json<any[]>(await run(ada, ['integrations', 'list', '--json']))).toEqual([]);
  });

  it("a second user cannot see the first user's data", async () => {
    const up = await run(
      grace,
      [
        'signup',
        '--email',
        'grace@example.com',
        '--username',
        'grace_hopper',
        '--name',
        'Hopper Computing',
        '--password-stdin',
        '--accept-terms',
      ],
      { stdin: 'Another-456!\n' },
    );
    expect(up.code, up.stderr).toBe(0);
    expect((await run(grace, ['projects', 'list'])).stderr.trim()).toBe(MESSAGES.noProjects);
    const theirs = await run(grace, ['uploads', 'list', '--project', state.project]);
    expect(theirs.code).toBe(1);
    for (const args of [
      ['runs', 'list'],
      ['quotes', 'show', state.quote],
    ]) {
      const r = await run(grace, [...args, '--project', state.project]);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stdout).toBe('');
    }
    const direct = await run(grace, ['quotes', 'show', state.quote]);
    expect(direct.code).toBe(1);
    expect(direct.stdout).toBe('');
    const rename = await run(grace, ['projects', 'rename', state.project, '--name', 'Mine now']);
    expect(rename.code).toBe(1);
    expect(json<any[]>(await run(ada, ['projects', 'list', '--json']))[0].name).toBe('Churn');
  });

  it('invites the second user by mail; they accept the link; the audit log shows it; removal ends their access', async () => {
    const invite = json(await run(ada, ['members', 'invite', '--email', 'grace@example.com', '--json']));
    expect(invite).toMatchObject({ email: 'grace@example.com', role: 'member' });
    // The embedded mailer writes the invitation to DATA_DIR/outbox.
    let link = '';
    for (let i = 0; i < 200 && !link; i++) {
      const mails = outboxMails(join(server.dir, 'data'));
      link = mails.map((m) => /http\S*\/invite\?token=\S+/.exec(m)?.[0]).find(Boolean) ?? '';
      if (!link) await new Promise((r) => setTimeout(r, 50));
    }
    expect(link).toContain('/invite?token=');
    const accepted = await run(grace, ['invites', 'accept', link]);
    expect(accepted.code, accepted.stderr).toBe(0);
    const adaClient = json<any[]>(await run(ada, ['accounts', 'list', '--json']))[0].stamp;
    expect(json<any[]>(await run(grace, ['projects', 'list', '--client', adaClient, '--json']))[0].name).toBe('Churn');
    const members = json<any[]>(await run(ada, ['members', 'list', '--json']));
    expect(members.map((m) => [m.user.email, m.role])).toEqual([
      ['ada@example.com', 'owner'],
      ['grace@example.com', 'member'],
    ]);
    const audit = json<any[]>(await run(ada, ['audit', '--limit', '2', '--json']));
    expect(audit.map((e) => e.action)).toEqual(['member.join', 'member.invite']);
    expect((await run(ada, ['members', 'remove', 'grace@example.com', '--yes'])).code).toBe(0);
    expect((await run(grace, ['projects', 'list', '--client', adaClient])).code).toBe(1);
  });

  it('logout ends the session and removes the token; the server being down is one clear line', async () => {
    const origin = new URL(server.url).origin;
    const before = JSON.parse(await readFile(join(ada, '.config', 'portal', 'config.json'), 'utf8')).hosts[origin];
    expect((await run(ada, ['logout'])).code).toBe(0);
    const config = JSON.parse(await readFile(join(ada, '.config', 'portal', 'config.json'), 'utf8'));
    expect(config.hosts?.[origin]).toBeUndefined();
    const copy = await fetch(`${server.url}/api/user/permission`, { headers: { authorization: `Bearer ${before.token}` } });
    expect(copy.status).toBe(401);
    const after = await run(ada, ['projects', 'list']);
    expect(after.code).toBe(4);
    // Grace's token is for the server, so it is not sent to another origin: she is not signed in there.
    const elsewhere = await portal(grace, 'http://127.0.0.1:9', ['projects', 'list']);
    expect(elsewhere.code).toBe(4);
    expect(elsewhere.stderr).toContain(MESSAGES.tokenMissing);
    const down = await portal(grace, 'http://127.0.0.1:9', ['projects', 'list'], { env: { PORTAL_TOKEN: SHAPED_TOKEN } });
    expect(down.code).toBe(1);
    expect(down.stderr.trim().split('\n')).toHaveLength(1);
    expect(down.stderr).toContain(MESSAGES.cannotReach('http://127.0.0.1:9', 'connection refused'));
    expect(down.stderr).not.toMatch(/\bat .*\.js:\d+/);
  });
});
