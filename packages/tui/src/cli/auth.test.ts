import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { portal } from '../testing/cli';
import { startFakeApi, type FakeApi } from '../testing/fakeApi';
import { memoryStore } from '../store';

let api: FakeApi;
beforeEach(async () => (api = await startFakeApi()));
afterEach(() => api.close());

describe('portal login / logout / whoami / signup / password', () => {
  it('logs in with --password-stdin, stores the token and the only account', async () => {
    const r = await portal(['login', '--email', 'ada@example.com', '--password-stdin', '--api', api.url], { stdin: 'Secret-123\n' });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Signed in as ada@example.com (Analytical Engines)');
    expect(r.stdout).toBe('');
    expect(r.store.saved.token).toMatch(/\./);
    expect(r.store.saved.client).toBe('cli000001');
    expect(r.store.saved.api).toBe(api.url);

    const who = await portal(['whoami', '--json'], { store: r.store });
    expect(who.code).toBe(0);
    expect(JSON.parse(who.stdout)).toMatchObject({ email: 'ada@example.com', username: 'ada_l', api: api.url });

    const out = await portal(['logout'], { store: r.store });
    expect(out.code).toBe(0);
    expect(r.store.saved.token).toBeUndefined();
    expect((await portal(['whoami'], { store: r.store })).code).toBe(4);
  });

  it('wrong password: SPEC message, exit 1', async () => {
    const r = await portal(['login', '--email', 'ada@example.com', '--password-stdin', '--api', api.url], { stdin: 'nope' });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(MESSAGES.invalidCredentials);
  });

  it('without a terminal a missing value is a usage error naming the flag', async () => {
    const a = await portal(['login', '--api', api.url]);
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('--email is required');
    const b = await portal(['login', '--email', 'ada@example.com', '--api', api.url]);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('--password-stdin is required');
  });

  it('on a terminal it asks for what is missing, the password hidden', async () => {
    const r = await portal(['login', '--api', api.url], { tty: true, answers: ['ada@example.com', 'Secret-123'] });
    expect(r.code).toBe(0);
    expect(r.prompts).toEqual(['Email: ', 'Password: ']);
  });

  it('signup checks the rules and needs the terms', async () => {
    const bad = await portal(['signup', '--email', 'x@example.com', '--username', 'abc', '--name', 'Company', '--password-stdin', '--accept-terms', '--api', api.url], { stdin: 'Secret-123' });
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim()).toBe(MESSAGES.username);
    const noTerms = await portal(['signup', '--email', 'x@example.com', '--username', 'grace_h', '--name', 'Company', '--password-stdin', '--api', api.url], { stdin: 'Secret-123' });
    expect(noTerms.code).toBe(2);
    expect(noTerms.stderr).toContain(MESSAGES.terms);
    const ok = await portal(['signup', '--email', 'grace@example.com', '--username', 'grace_h', '--name', 'Hopper Ltd', '--password-stdin', '--accept-terms', '--api', api.url, '--json'], { stdin: 'Secret-123' });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).client.list[0].name).toBe('Hopper Ltd');
    expect(ok.store.saved.token).toBeTruthy();
  });

  it('password reset-start and reset-finish show SPEC texts', async () => {
    const a = await portal(['password', 'reset-start', '--email', 'ada@example.com', '--api', api.url]);
    expect(a.code).toBe(0);
    expect(a.stderr.trim()).toBe(MESSAGES.resetStarted);
    const weak = await portal(['password', 'reset-finish', '--token', 't', '--password-stdin', '--api', api.url], { stdin: 'weak' });
    expect(weak.code).toBe(1);
    expect(weak.stderr.trim()).toBe(MESSAGES.password);
    const b = await portal(['password', 'reset-finish', '--token', 't', '--password-stdin', '--api', api.url], { stdin: 'Better-456' });
    expect(b.code).toBe(0);
    expect(b.stderr).toContain(MESSAGES.passwordChanged);
  });

  it('accounts list: table on a TTY, tab-separated when piped, an array with --json', async () => {
    const store = (await portal(['login', '--email', 'ada@example.com', '--password-stdin', '--api', api.url], { stdin: 'Secret-123' })).store;
    const tty = await portal(['accounts', 'list'], { store, tty: true });
    expect(tty.stdout.split('\n')[0]).toMatch(/^NAME\s+ID\s+PLAN\s+CHOICE\s+ACTIVE/);
    expect(tty.stdout).toContain('Analytical Engines');
    const piped = await portal(['accounts', 'list'], { store });
    expect(piped.stdout).toBe('Analytical Engines\tcli000001\tIndividual\tCloud\tOn\tyes\n');
    const json = await portal(['accounts', 'list', '--json'], { store });
    expect(JSON.parse(json.stdout)[0].client.stamp).toBe('cli000001');
  });

  it('with several accounts and none chosen, says how to choose (usage error)', async () => {
    api.state.clients.push({ stamp: 'cli000002', name: 'Second Co', plan: 'Enterprise', choice: 'Premise', active: 1 });
    api.state.users[0].clients.push('cli000002');
    const store = memoryStore();
    await portal(['login', '--email', 'ada@example.com', '--password-stdin', '--api', api.url], { stdin: 'Secret-123', store });
    const r = await portal(['projects', 'list'], { store });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('choose one with --client <id>');
    expect((await portal(['projects', 'list', '--client', 'cli000002'], { store })).code).toBe(0);
    const plan = await portal(['plan', '--client', 'cli000002'], { store, tty: true });
    expect(plan.stdout).toContain('ENTERPRISE [CURRENT]');
    expect(plan.stdout).toContain('Max file size');
    expect(plan.stderr).toContain('Enterprise limits are initial limits');
    expect(plan.stderr).not.toContain('Upgrade to Enterprise');
    const individual = await portal(['plan', '--client', 'cli000001'], { store });
    expect(individual.stderr).toContain('Upgrade to Enterprise: contact us at');
  });
});
