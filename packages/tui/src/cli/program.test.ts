import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { portal } from '../testing/cli';
import { withTestApi } from '@portal/testkit/api';
import { forgedToken } from '@portal/testkit/seed';
import { memoryStore } from '../store';

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
    expect(r.stderr.trim()).toBe(`${MESSAGES.tokenMissing}: sign in with portal login`);
  });

  it('a refused token is removed and exits 4', async () => {
    const store = memoryStore({ token: forgedToken(server.user) });
    const r = await portal(['projects', 'list', '--api', server.url], { store });
    expect(r.code).toBe(4);
    expect(store.tokens.get()).toBeNull();
    expect(server.calls).toContain('permissions');
  });

  it('server down: one clear line, exit 1, no stack trace', async () => {
    const store = memoryStore({ token: server.user.token });
    const r = await portal(['projects', 'list', '--api', 'http://127.0.0.1:9'], { store });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(MESSAGES.serverUnreachable);
    expect(r.stderr).toContain('http://127.0.0.1:9');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('--api, then PORTAL_API, then the stored API base', async () => {
    const store = memoryStore({ token: server.user.token, api: 'http://127.0.0.1:9' });
    expect((await portal(['projects', 'list'], { store })).code).toBe(1);
    expect((await portal(['projects', 'list'], { store, env: { PORTAL_API: server.url } })).code).toBe(0);
    expect((await portal(['projects', 'list', '--api', server.url], { store, env: { PORTAL_API: 'http://127.0.0.1:9' } })).code).toBe(0);
    expect((await portal(['projects', 'list', '--api', 'nonsense'], { store })).stderr).toContain('--api must be an http(s) URL');
  });

  it('PORTAL_TOKEN overrides the stored token', async () => {
    const other = await server.newUser({ name: 'Somebody Else Ltd', label: 'other' });
    const store = memoryStore({ token: other.token });
    const r = await portal(['accounts', 'list', '--api', server.url], { store, env: { PORTAL_TOKEN: server.user.token } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Analytical Engines');
    expect(r.stdout).toContain(server.user.client);
    expect(r.stdout).not.toContain('Somebody Else Ltd');
    // The stored token is only set aside for this process, not replaced.
    expect(store.tokens.get()).toBe(other.token);
  });
});
