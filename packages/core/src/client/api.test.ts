import { afterEach, describe, expect, it } from 'vitest';
import { jwt, make, startServer, type TestServer } from '../testing/server';
import { ApiClient } from './api';
import { ApiError } from './errors';
import { memoryTokenStore } from './token';

// SPEC.md's texts, copied literally.
const TOKEN_MISSING = 'Token missing';
const TOKEN_EXPIRED = 'Token expired';

const NOW_S = 1_800_000_000;
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const client = make.client({ stamp: 'c1' });
const bucketList = (extra: Record<string, unknown> = {}) => ({ json: { client: { list: [client] }, bucket: { list: [] }, ...extra } });

async function setup(token: string | null, routes: Parameters<typeof startServer>[0] = {}) {
  let refreshes = 0;
  const fresh = jwt(NOW_S + 24 * 3600, { n: 'fresh' });
  const server = await startServer({
    'GET /api/bucket/item': () => bucketList(),
    'POST /api/user/refresh': () => (refreshes++, { json: { token: fresh } }),
    ...routes,
  });
  servers.push(server);
  const clock = { ms: NOW_S * 1000, now() { return this.ms; } };
  const tokens = memoryTokenStore(token);
  const failures: string[] = [];
  const api = new ApiClient({ baseUrl: server.url, tokens, clock, onAuthFailure: (m) => failures.push(m) });
  const bearer = () => server.requests.filter((r) => r.path === '/api/bucket/item').map((r) => r.headers.authorization);
  return { api, server, clock, tokens, failures, fresh, refreshes: () => refreshes, bearer };
}

describe('token rules', () => {
  it('a protected call without a token fails with "Token missing" and sends nothing', async () => {
    const t = await setup(null);
    const err = await t.api.calls.bucketList({ client: 'c1', active: 1 }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.display).toBe(TOKEN_MISSING);
    expect(err.isAuth).toBe(true);
    expect(t.failures).toEqual([TOKEN_MISSING]);
    expect(t.server.requests).toHaveLength(0);
  });

  it('an expired token is removed and the call fails with "Token expired"', async () => {
    const t = await setup(jwt(NOW_S - 1));
    const err = await t.api.calls.bucketList({ client: 'c1' }).catch((e) => e);
    expect(err.display).toBe(TOKEN_EXPIRED);
    expect(t.tokens.get()).toBeNull();
    expect(t.failures).toEqual([TOKEN_EXPIRED]);
    expect(t.server.requests).toHaveLength(0);
  });

  it('a token the server refuses (401) is removed as expired', async () => {
    const t = await setup(jwt(NOW_S + 7200), { 'GET /api/bucket/item': () => ({ status: 401, json: { error: { code: 'token_expired', message: 'Token expired' } } }) });
    const err = await t.api.calls.bucketList({ client: 'c1' }).catch((e) => e);
    expect(err.display).toBe(TOKEN_EXPIRED);
    expect(t.tokens.get()).toBeNull();
  });

  it('refreshes at 29:59 left, then calls with the new token', async () => {
    const old = jwt(NOW_S + 30 * 60 - 1);
    const t = await setup(old);
    await t.api.calls.bucketList({ client: 'c1' });
    expect(t.refreshes()).toBe(1);
    expect(t.server.requests.map((r) => r.path)).toEqual(['/api/user/refresh', '/api/bucket/item']);
    expect(t.server.requests[0].headers.authorization).toBe(`Bearer ${old}`);
    expect(t.bearer()).toEqual([`Bearer ${t.fresh}`]);
    expect(t.tokens.get()).toBe(t.fresh);
  });

  it('does not refresh at 30:01 left', async () => {
    const t = await setup(jwt(NOW_S + 30 * 60 + 1));
    await t.api.calls.bucketList({ client: 'c1' });
    expect(t.refreshes()).toBe(0);
  });

  it('refreshes at most once per 60 seconds, even when refresh does not help', async () => {
    const old = jwt(NOW_S + 10 * 60);
    const t = await setup(old, { 'POST /api/user/refresh': () => ({ status: 503, json: { error: { code: 'internal', message: 'busy' } } }) });
    const attempts = () => t.server.requests.filter((r) => r.path === '/api/user/refresh').length;
    await t.api.calls.bucketList({ client: 'c1' });
    expect(attempts()).toBe(1);
    t.clock.ms += 59_000;
    await t.api.calls.bucketList({ client: 'c1' });
    expect(attempts()).toBe(1);
    t.clock.ms += 1_000;
    await t.api.calls.bucketList({ client: 'c1' });
    expect(attempts()).toBe(2);
    // The calls themselves went through with the token still valid.
    expect(t.bearer()).toEqual([`Bearer ${old}`, `Bearer ${old}`, `Bearer ${old}`]);
  });

  it('concurrent calls in the refresh window share one refresh', async () => {
    const t = await setup(jwt(NOW_S + 60));
    await Promise.all([t.api.calls.bucketList({ client: 'c1' }), t.api.calls.bucketList({ client: 'c1' })]);
    expect(t.refreshes()).toBe(1);
  });

  it('a token in any response replaces the stored one, even on a failed call', async () => {
    const later = jwt(NOW_S + 48 * 3600, { n: 'rotated' });
    const t = await setup(jwt(NOW_S + 7200), {
      'GET /api/bucket/item': () => bucketList({ token: later }),
      'POST /api/bucket/name': () => ({ status: 500, json: { error: { code: 'internal', message: 'x' }, token: 'after-failure' } }),
    });
    await t.api.calls.bucketList({ client: 'c1' });
    expect(t.tokens.get()).toBe(later);
    await t.api.calls.bucketRename({ bucket: 'b1', name: 'N' }).catch(() => {});
    expect(t.tokens.get()).toBe('after-failure');
  });

  it('login stores the token it receives', async () => {
    const token = jwt(NOW_S + 3600);
    const t = await setup(null, { 'POST /api/user/login': () => ({ json: { login: { client: { list: [client] }, bucket: { list: [] } }, token } }) });
    const res = await t.api.calls.login({ email: 'ann@example.com', password: 'pw' });
    expect(res.login.client.list[0].stamp).toBe('c1');
    expect(t.tokens.get()).toBe(token);
    expect(t.server.requests[0].headers.authorization).toBe(`Basic ${Buffer.from('ann@example.com:pw').toString('base64')}`);
  });
});

describe('responses and errors', () => {
  it('reads the permission list as an array or as permission.list', async () => {
    const entry = { client, createdAt: 1 };
    for (const body of [[entry], { permission: { list: [entry] } }]) {
      const t = await setup(jwt(NOW_S + 7200), { 'GET /api/user/permission': () => ({ json: body }) });
      expect(await t.api.calls.permissions()).toEqual([entry]);
    }
  });

  it('a failed call carries its status, the server message and the SPEC message to show', async () => {
    const t = await setup(jwt(NOW_S + 7200), {
      'PUT /api/bucket/item': () => ({ status: 409, json: { error: { code: 'conflict', message: 'Name taken' } } }),
      'POST /api/user/login': () => ({ status: 401, json: { error: { code: 'unauthorized', message: 'nope' } } }),
      'POST /api/user/signup': () => ({ status: 400, json: { error: { code: 'invalid_input', message: 'Email already registered' } } }),
    });
    const err = await t.api.calls.bucketCreate({ client: 'c1', name: 'P' }).catch((e) => e);
    expect([err.status, err.code, err.serverMessage, err.display]).toEqual([409, 'conflict', 'Name taken', 'Failed to create project...']);
    expect((await t.api.calls.login({ email: 'a@b.co', password: 'x' }).catch((e) => e)).display).toBe('Invalid credentials');
    const signup = { email: 'a@b.co', username: 'annlee', password: 'Aa1!xxxx', name: 'Acme Labs' };
    expect((await t.api.calls.signup(signup).catch((e) => e)).display).toBe('Email already registered');
  });

  it('an unreachable server gives a network error with the call\'s message', async () => {
    const t = await setup(jwt(NOW_S + 7200));
    const api = new ApiClient({ baseUrl: 'http://127.0.0.1:9', tokens: t.tokens, clock: t.clock });
    const err = await api.calls.runList({ bucket: 'b1' }).catch((e) => e);
    expect(err.isNetwork).toBe(true);
    expect(err.display).toBe('Failed to load requests');
    const signup = await api.calls.signup({ email: 'a@b.co', username: 'annlee', password: 'Aa1!xxxx', name: 'Acme Labs' }).catch((e) => e);
    expect(signup.display).toBe('An unexpected error occurred. Please try again.');
  });

  it('a response that breaks the contract is an error, not a crash', async () => {
    const t = await setup(jwt(NOW_S + 7200), { 'GET /api/run/item': () => ({ json: { run: 'nope' } }) });
    const err = await t.api.calls.runList({ bucket: 'b1' }).catch((e) => e);
    expect(err.code).toBe('bad_response');
    expect(err.display).toBe('Failed to load requests');
  });
});
