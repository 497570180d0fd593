import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { portal } from '../../test/cli';
import { withTestApi } from '@portal/testkit/api';
import { forgedToken } from '@portal/testkit/seed';
import { memoryStore } from '../store';
import { closedPort, recordingServer, silentServer } from '../../test/servers';

const server = withTestApi({ worker: false });

describe('portal (global behaviour)', { timeout: 30_000 }, () => {
  it('prints the version and exits 0', async () => {
    const r = await portal(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('1.2.3');
  });

  it('without a terminal, prints help on stderr and exits 2 instead of starting the UI', async () => {
    const r = await portal([]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Usage: portal');
    expect(r.stderr).toContain('needs a terminal');
  });

  it('an unknown command is a usage error', async () => {
    const r = await portal(['bogus']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown command 'bogus'");
  });

  it('every command has --help with an example', async () => {
    for (const cmd of [
      ['login'],
      ['projects', 'create'],
      ['uploads', 'push'],
      ['fit'],
      ['shrink'],
      ['runs', 'download'],
      ['keys', 'info'],
      ['quotes', 'show'],
      ['billing'],
      ['password', 'reset-start'],
    ]) {
      const r = await portal([...cmd, '--help']);
      expect(r.code, cmd.join(' ')).toBe(0);
      expect(r.stdout).toMatch(/Examples:\n {2}\$ portal /);
    }
  });

  it('not signed in: says so and exits 4', async () => {
    const r = await portal(['projects', 'list', '--api', server.url]);
    expect(r.code).toBe(4);
    expect(r.stderr.trim()).toBe(`${MESSAGES.tokenMissing}: sign in to ${server.url} with portal login --api ${server.url}`);
    const stored = await portal(['projects', 'list'], { store: memoryStore({ api: server.url }) });
    expect(stored.stderr.trim()).toBe(`${MESSAGES.tokenMissing}: sign in with portal login`);
  });

  it('a refused token is removed and exits 4', async () => {
    const store = memoryStore({ api: server.url, token: forgedToken(server.user) });
    const r = await portal(['projects', 'list', '--api', server.url], { store });
    expect(r.code).toBe(4);
    expect(store.host(server.url).tokens.get()).toBeNull();
    expect(server.calls).toContain('permissions');
  });

  it('server down: one clear line that says so, exit 1, no stack trace', async () => {
    const down = await closedPort();
    const store = memoryStore({ api: down, token: server.user.token });
    const r = await portal(['projects', 'list', '--api', down], { store });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(`${MESSAGES.fetchPermissions}: ${MESSAGES.cannotReach(down, 'connection refused')}`);
    // At sign-in too: an unreachable server is not a refusal of the credentials.
    const login = await portal(['login', '--email', server.user.email, '--password-stdin', '--api', down], { stdin: 'pw' });
    expect(login.code).toBe(1);
    expect(login.stderr).not.toContain(MESSAGES.invalidCredentials);
    expect(login.stderr.trim()).toBe(MESSAGES.cannotReach(down, 'connection refused'));
  });

  it('a server that accepts and never answers: timed out after --timeout or PORTAL_TIMEOUT seconds, not retried', async () => {
    const silent = await silentServer();
    try {
      const store = memoryStore({ api: silent.url, token: server.user.token });
      const started = Date.now();
      const r = await portal(['projects', 'list', '--timeout', '1'], { store });
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toBe(`${MESSAGES.fetchPermissions}: ${MESSAGES.timedOut(silent.url, 1)}`);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(silent.seen).toHaveLength(1);
      const login = await portal(['login', '--email', 'a@b.co', '--password-stdin'], {
        store,
        stdin: 'pw',
        env: { PORTAL_TIMEOUT: '0.5' },
      });
      expect(login.stderr.trim()).toBe(MESSAGES.timedOut(silent.url, 0.5));
      const bad = await portal(['projects', 'list', '--timeout', 'soon'], { store });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--timeout must be a number of seconds');
    } finally {
      await silent.close();
    }
  });

  it('a failing server: reads are retried with backoff, writes are not; the status is said', async () => {
    const failing = await recordingServer(503, { error: { code: 'unavailable', message: 'Down for maintenance' } });
    try {
      const store = memoryStore({ api: failing.url, token: server.user.token });
      const list = await portal(['accounts', 'list'], { store });
      expect(list.code).toBe(1);
      expect(list.stderr.trim()).toBe(`${MESSAGES.fetchPermissions}: ${MESSAGES.serverError(503, 'Down for maintenance')}`);
      expect(failing.seen.map((x) => x.method)).toEqual(['GET', 'GET', 'GET']);
      failing.seen.length = 0;
      const rename = await portal(['projects', 'rename', 'b_1', '--name', 'Churn'], { store });
      expect(rename.code).toBe(1);
      expect(rename.stderr).toContain('Server error 503');
      expect(failing.seen.map((x) => x.method)).toEqual(['POST']);
      failing.seen.length = 0;
      const login = await portal(['login', '--email', 'a@b.co', '--password-stdin'], { store, stdin: 'pw' });
      expect(login.stderr.trim()).toBe(MESSAGES.serverError(503, 'Down for maintenance'));
      expect(failing.seen.map((x) => x.method)).toEqual(['POST']);
    } finally {
      await failing.close();
    }
  });

  it('--api, then PORTAL_API, then the stored API base', async () => {
    const store = memoryStore({ api: 'http://127.0.0.1:9', hosts: { [server.url]: { token: server.user.token } } });
    expect((await portal(['projects', 'list'], { store })).code).toBe(4);
    expect((await portal(['projects', 'list'], { store, env: { PORTAL_API: server.url } })).code).toBe(0);
    expect((await portal(['projects', 'list', '--api', server.url], { store, env: { PORTAL_API: 'http://127.0.0.1:9' } })).code).toBe(0);
    expect((await portal(['projects', 'list', '--api', 'nonsense'], { store })).stderr).toContain('--api must be an http(s) URL');
  });

  it('PORTAL_TOKEN overrides the stored token', async () => {
    const other = await server.newUser({ name: 'Somebody Else Ltd', label: 'other' });
    const store = memoryStore({ api: server.url, token: other.token });
    const r = await portal(['accounts', 'list', '--api', server.url], { store, env: { PORTAL_TOKEN: server.user.token } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Analytical Engines');
    expect(r.stdout).toContain(server.user.client);
    expect(r.stdout).not.toContain('Somebody Else Ltd');
    // The stored token is only set aside for this process, not replaced.
    expect(store.host(server.url).tokens.get()).toBe(other.token);
  });
});
