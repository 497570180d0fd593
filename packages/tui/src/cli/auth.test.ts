import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { portal } from '../../test/cli';
import { addAccount, rows, withTestApi } from '@portal/testkit/api';
import { resetTokenFor } from '@portal/testkit/seed';
import { memoryStore } from '../store';
import { recordingServer } from '../../test/servers';

const server = withTestApi({ worker: false });

/** A real sign-in through the command, as a script would do it. */
const login = (store = memoryStore(), password = server.user.password) =>
  portal(['login', '--email', server.user.email, '--password-stdin', '--api', server.url], { stdin: `${password}\n`, store });

describe('portal login / logout / whoami / signup / password', { timeout: 30_000 }, () => {
  it('logs in with --password-stdin, stores the token and the only account', async () => {
    const r = await login();
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`Signed in as ${server.user.email} (Analytical Engines)`);
    expect(r.stdout).toBe('');
    expect(r.store.host(server.url).tokens.get()).toMatch(/\./);
    expect(r.store.host(server.url).get('client')).toBe(server.user.client);
    expect(r.store.saved.api).toBe(server.url);

    const who = await portal(['whoami', '--json'], { store: r.store });
    expect(who.code).toBe(0);
    expect(JSON.parse(who.stdout)).toMatchObject({ email: server.user.email, username: server.user.username, api: server.url });

    const token = r.store.host(server.url).tokens.get() as string;
    const out = await portal(['logout'], { store: r.store });
    expect(out.code).toBe(0);
    expect(r.store.host(server.url).tokens.get()).toBeNull();
    // The session ended on the server: the token is refused wherever a copy of it lives.
    const copy = await fetch(new URL('/api/user/permission', server.url), { headers: { authorization: `Bearer ${token}` } });
    expect(copy.status).toBe(401);
    expect((await portal(['whoami'], { store: r.store })).code).toBe(4);
  });

  it('says so and fails when the sign-in cannot be saved, instead of reporting it kept', async () => {
    const store = {
      ...memoryStore(),
      path: '/read-only/portal/config.json',
      flush: () => Promise.reject(new Error('EACCES: permission denied')),
    };
    const r = await portal(['login', '--email', server.user.email, '--password-stdin', '--api', server.url], {
      stdin: `${server.user.password}\n`,
      store: store as ReturnType<typeof memoryStore>,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain('Signed in');
    expect(r.stderr).toContain('Could not save your settings to /read-only/portal/config.json: EACCES: permission denied.');
  });

  it('wrong password: SPEC message, exit 1', async () => {
    const r = await login(memoryStore(), 'nope');
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(MESSAGES.invalidCredentials);
    expect(r.store.host(server.url).tokens.get()).toBeNull();
  });

  it('without a terminal a missing value is a usage error naming the flag', async () => {
    const a = await portal(['login', '--api', server.url]);
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('--email is required');
    const b = await portal(['login', '--email', server.user.email, '--api', server.url]);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('--password-stdin is required');
    expect(server.calls).toEqual([]);
  });

  it('on a terminal it asks for what is missing, the password hidden', async () => {
    const r = await portal(['login', '--api', server.url], { tty: true, answers: [server.user.email, server.user.password] });
    expect(r.code).toBe(0);
    expect(r.prompts).toEqual(['Email: ', 'Password: ']);
    expect(r.store.host(server.url).get('client')).toBe(server.user.client);
  });

  it('signup checks the rules and needs the terms', async () => {
    const n = `grace_${randomBytes(4).toString('hex')}`;
    const bad = await portal(
      [
        'signup',
        '--email',
        `${n}@example.com`,
        '--username',
        'abc',
        '--name',
        'Company',
        '--password-stdin',
        '--accept-terms',
        '--api',
        server.url,
      ],
      { stdin: 'Secret-123' },
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim()).toBe(MESSAGES.username);
    const noTerms = await portal(
      ['signup', '--email', `${n}@example.com`, '--username', n, '--name', 'Company', '--password-stdin', '--api', server.url],
      { stdin: 'Secret-123' },
    );
    expect(noTerms.code).toBe(2);
    expect(noTerms.stderr).toContain(MESSAGES.terms);
    expect(server.calls).toEqual([]);
    const ok = await portal(
      [
        'signup',
        '--email',
        `${n}@example.com`,
        '--username',
        n,
        '--name',
        'Hopper Ltd',
        '--password-stdin',
        '--accept-terms',
        '--api',
        server.url,
        '--json',
      ],
      { stdin: 'Secret-123' },
    );
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).client.list[0].name).toBe('Hopper Ltd');
    expect(ok.store.host(server.url).tokens.get()).toBeTruthy();
    // The user and its account are on the server, and the stored token is theirs.
    const user = await rows(server).selectFrom('users').select(['email', 'username']).where('username', '=', n).executeTakeFirst();
    expect(user).toEqual({ email: `${n}@example.com`, username: n });
    const who = await portal(['whoami', '--json'], { store: ok.store });
    expect(JSON.parse(who.stdout)).toMatchObject({ email: `${n}@example.com`, username: n, clients: [{ name: 'Hopper Ltd' }] });
  });

  it('password reset-start and reset-finish show SPEC texts; the new password signs in', async () => {
    const a = await portal(['password', 'reset-start', '--email', server.user.email, '--api', server.url]);
    expect(a.code).toBe(0);
    expect(a.stderr.trim()).toBe(MESSAGES.resetStarted);
    const token = await resetTokenFor(server, server.user.email);
    const weak = await portal(['password', 'reset-finish', '--token', token, '--password-stdin', '--api', server.url], { stdin: 'weak' });
    expect(weak.code).toBe(1);
    expect(weak.stderr.trim()).toBe(MESSAGES.password);
    const b = await portal(['password', 'reset-finish', '--token', token, '--password-stdin', '--api', server.url], {
      stdin: 'Better-456',
    });
    expect(b.code).toBe(0);
    expect(b.stderr).toContain(MESSAGES.passwordChanged);
    expect((await login(memoryStore(), server.user.password)).code).toBe(1);
    expect((await login(memoryStore(), 'Better-456')).code).toBe(0);
    // The link is single use.
    const again = await portal(['password', 'reset-finish', '--token', token, '--password-stdin', '--api', server.url], {
      stdin: 'Another-789',
    });
    expect(again.code).toBe(1);
  });

  it('accounts list: table on a TTY, tab-separated when piped, an array with --json', async () => {
    const { store } = await login();
    const tty = await portal(['accounts', 'list'], { store, tty: true });
    expect(tty.stdout.split('\n')[0]).toMatch(/^NAME\s+ID\s+PLAN\s+CHOICE\s+ACTIVE/);
    expect(tty.stdout).toContain('Analytical Engines');
    const piped = await portal(['accounts', 'list'], { store });
    expect(piped.stdout).toBe(`Analytical Engines\t${server.user.client}\tIndividual\tCloud\tOn\tyes\n`);
    const json = await portal(['accounts', 'list', '--json'], { store });
    expect(JSON.parse(json.stdout)[0]).toMatchObject({ stamp: server.user.client, name: 'Analytical Engines', plan: 'Individual' });
  });

  it('with several accounts and none chosen, says how to choose (usage error)', async () => {
    const second = await addAccount(server, server.user, 'Second Co', 'Enterprise');
    const store = memoryStore();
    expect((await login(store)).code).toBe(0);
    const r = await portal(['projects', 'list'], { store });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('choose one with --client <id>');
    expect((await portal(['projects', 'list', '--client', second.stamp], { store })).code).toBe(0);
    const plan = await portal(['plan', '--client', second.stamp], { store, tty: true });
    expect(plan.stdout).toContain('ENTERPRISE [CURRENT]');
    expect(plan.stdout).toContain('Max file size');
    expect(plan.stderr).toContain('Enterprise limits are initial limits');
    expect(plan.stderr).not.toContain('Upgrade to Enterprise');
    const individual = await portal(['plan', '--client', server.user.client], { store });
    expect(individual.stderr).toContain('Upgrade to Enterprise: contact us at');
  });
});

describe('credentials per server', { timeout: 30_000 }, () => {
  it('a token is only sent to the origin it came from; another server gives Token missing and exit 4', async () => {
    const { store } = await login();
    const other = await recordingServer(200, []);
    try {
      for (const r of [
        await portal(['projects', 'list', '--api', other.url], { store }),
        // A poisoned or mistyped variable in CI is refused the same way.
        await portal(['accounts', 'list'], { store, env: { PORTAL_API: other.url } }),
        await portal(['whoami'], { store, env: { PORTAL_API: `${other.url}/` } }),
      ]) {
        expect(r.code, r.stderr).toBe(4);
        expect(r.stderr).toContain(`${MESSAGES.tokenMissing}: sign in to ${other.url} with portal login --api ${other.url}`);
      }
      expect(other.seen.filter((x) => x.headers.authorization)).toEqual([]);
      // The first server's sign-in is untouched and still works.
      expect((await portal(['projects', 'list'], { store })).code).toBe(0);
    } finally {
      await other.close();
    }
  });

  it('auth status lists each origin with its user and expiry; logout signs out of one origin only', async () => {
    const second = await server.newUser({ name: 'Second Server Co', label: 'second' });
    const { store } = await login();
    // The same server under another origin name stands for a second server the user signed in to.
    const alias = server.url.replace('127.0.0.1', 'localhost');
    const r2 = await portal(['login', '--email', second.email, '--password-stdin', '--api', alias], {
      stdin: `${second.password}\n`,
      store,
    });
    expect(r2.code, r2.stderr).toBe(0);
    const status = await portal(['auth', 'status', '--json'], { store });
    expect(status.code).toBe(0);
    const list = JSON.parse(status.stdout);
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ origin: server.url, email: server.user.email, default: false, expired: false });
    expect(list[1]).toMatchObject({ origin: alias, email: second.email, default: true });
    expect(list[1].expiresAt * 1000).toBeGreaterThan(Date.now());
    const table = await portal(['auth', 'status'], { store, tty: true });
    expect(table.stdout).toMatch(new RegExp(`\\*\\s+${alias.replace(/[.:/]/g, '\\$&')}\\s+${second.email}`));
    expect(table.stdout).toMatch(/\(in 1[12] h\)/);

    const out = await portal(['logout', '--api', server.url], { store });
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(`Signed out of ${server.url}`);
    expect(store.host(server.url).tokens.get()).toBeNull();
    expect(store.host(alias).tokens.get()).toBeTruthy();
    expect((await portal(['whoami', '--json'], { store })).stdout).toContain(second.email);
    expect((await portal(['logout'], { store })).code).toBe(0);
    const none = await portal(['auth', 'status'], { store });
    expect(none.code).toBe(4);
    expect(none.stderr).toContain('not signed in to any server');
  });
});
