import { beforeAll, describe, expect, it } from 'vitest';
import { withTestApi } from '@portal/testkit/api';
import { forgedToken } from '@portal/testkit/seed';
import { ApiClient, type ApiClientOptions, ApiError, memoryTokenStore, needsOtp, readClaims, tokenExpiry } from '@portal/core';
import { CALLS, callTable } from '@portal/core/contract/table';
import { plainHttp } from '@portal/core/node';

// SPEC.md's texts, copied literally.
const TOKEN_MISSING = 'Token missing';
const TOKEN_EXPIRED = 'Token expired';

const server = withTestApi({ worker: false });

/** A session token for the test's user signed by the server itself, expiring `ttlS` seconds from now (negative: already expired). */
function sessionToken(ttlS: number): Promise<string> {
  const claims = readClaims(server.user.token) as { sub: string; email: string; username: string };
  return server.server.built.services.sessions.start({ sub: claims.sub, email: claims.email, username: claims.username }, ttlS);
}

/** The transport the clients of the running block use (see `over %s` below). */
let transport: ApiClientOptions['http'];

/** A client with the given token and a clock the test moves; `atLeft` sets the clock that many seconds before the token expires. */
async function setup(token: string | null, atLeft?: number) {
  // What left this client, header by header (the server accepts an old and a refreshed token alike).
  const from = server.sent.length;
  const sent = () => server.sent.slice(from);
  const exp = token ? tokenExpiry(token) : null;
  const clock = {
    ms: exp !== null && atLeft !== undefined ? (exp - atLeft) * 1000 : Date.now(),
    now() {
      return this.ms;
    },
  };
  const tokens = memoryTokenStore(token);
  const failures: string[] = [];
  const api = new ApiClient({
    calls: callTable,
    baseUrl: server.url,
    tokens,
    clock,
    onAuthFailure: (m) => failures.push(m),
    http: transport,
  });
  const bearer = () =>
    sent()
      .filter((r) => r.path === '/api/bucket/item')
      .map((r) => r.authorization);
  const refreshes = () => server.calls.filter((c) => c === 'refresh').length;
  return {
    api,
    get sent() {
      return sent();
    },
    clock,
    tokens,
    failures,
    refreshes,
    bearer,
  };
}

// Every rule holds over both transports: the global fetch (browsers, tests) and node:http (the CLI's plainHttp).
describe.each([
  ['the global fetch', undefined],
  ['node:http', plainHttp],
] as const)('over %s', (_name, http) => {
  beforeAll(() => {
    transport = http;
  });

  describe('token rules', { timeout: 30_000 }, () => {
    it('a protected call without a token fails with "Token missing" and sends nothing', async () => {
      const t = await setup(null);
      const err = await t.api.calls.bucketList({ client: server.user.client, active: 1 }).catch((e) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect(err.display).toBe(TOKEN_MISSING);
      expect(err.isAuth).toBe(true);
      expect(t.failures).toEqual([TOKEN_MISSING]);
      expect(t.sent).toHaveLength(0);
    });

    it('an expired token is removed and the call fails with "Token expired"', async () => {
      // By the client's clock the server's token has just expired: nothing is sent.
      const t = await setup(server.user.token, -1);
      const err = await t.api.calls.bucketList({ client: server.user.client }).catch((e) => e);
      expect(err.display).toBe(TOKEN_EXPIRED);
      expect(t.tokens.get()).toBeNull();
      expect(t.failures).toEqual([TOKEN_EXPIRED]);
      expect(t.sent).toHaveLength(0);
    });

    it('a token the server refuses (401) is removed as expired', async () => {
      // Well formed and unexpired, but signed with another key.
      const forged = await setup(forgedToken(server.user));
      const err = await forged.api.calls.bucketList({ client: server.user.client }).catch((e) => e);
      expect([err.status, err.display]).toEqual([401, TOKEN_EXPIRED]);
      expect(forged.tokens.get()).toBeNull();
      expect(forged.failures).toEqual([TOKEN_EXPIRED]);
      expect(server.calls).toEqual(['bucketList']);
      // Expired by the server's clock while the client's clock (an hour behind) still takes it as valid.
      const stale = await sessionToken(-60);
      const late = await setup(stale, 3600);
      const expired = await late.api.calls.bucketList({ client: server.user.client }).catch((e) => e);
      expect([expired.status, expired.code, expired.display]).toEqual([401, 'token_expired', TOKEN_EXPIRED]);
      expect(late.tokens.get()).toBeNull();
      expect(late.bearer()).toEqual([`Bearer ${stale}`]);
    });

    it('logout ends the session on the server, then forgets the token; a copy of it is refused from then on', async () => {
      const token = await sessionToken(3600);
      const t = await setup(token);
      expect(await t.api.logout()).toEqual({ ended: true });
      expect(t.tokens.get()).toBeNull();
      expect(t.sent).toEqual([{ path: '/api/user/logout', authorization: `Bearer ${token}` }]);
      const copy = await setup(token);
      const err = await copy.api.calls.bucketList({ client: server.user.client }).catch((e) => e);
      expect([err.status, err.display]).toEqual([401, TOKEN_EXPIRED]);
      // A server that cannot be reached: the token is forgotten here all the same, and the answer says so.
      const offline = new ApiClient({
        calls: callTable,
        baseUrl: 'http://127.0.0.1:9',
        tokens: memoryTokenStore(await sessionToken(3600)),
        http: transport,
      });
      const out = await offline.logout();
      expect([out.ended, out.error?.status, offline.tokens.get()]).toEqual([false, 0, null]);
    });

    it('refreshes at 29:59 left, then calls with the new token', async () => {
      const old = await sessionToken(3600);
      const t = await setup(old, 30 * 60 - 1);
      const res = await t.api.calls.bucketList({ client: server.user.client });
      expect(res.client.list.map((c) => c.stamp)).toEqual([server.user.client]);
      expect(server.calls).toEqual(['refresh', 'bucketList']);
      expect(t.sent[0]).toEqual({ path: '/api/user/refresh', authorization: `Bearer ${old}` });
      // The server's new token (a full session again) is stored and used.
      const fresh = t.tokens.get()!;
      expect(fresh).not.toBe(old);
      expect(tokenExpiry(fresh)! - tokenExpiry(old)!).toBeGreaterThan(10 * 3600);
      expect(t.bearer()).toEqual([`Bearer ${fresh}`]);
    });

    it('does not refresh at 30:01 left', async () => {
      const t = await setup(server.user.token, 30 * 60 + 1);
      await t.api.calls.bucketList({ client: server.user.client });
      expect(t.refreshes()).toBe(0);
      expect(server.calls).toEqual(['bucketList']);
      expect(t.tokens.get()).toBe(server.user.token);
    });

    it('refreshes at most once per 60 seconds, even when refresh does not help', async () => {
      const old = server.user.token;
      const t = await setup(old, 10 * 60);
      server.failing.refresh = 503;
      await t.api.calls.bucketList({ client: server.user.client });
      expect(t.refreshes()).toBe(1);
      t.clock.ms += 59_000;
      await t.api.calls.bucketList({ client: server.user.client });
      expect(t.refreshes()).toBe(1);
      t.clock.ms += 1_000;
      await t.api.calls.bucketList({ client: server.user.client });
      expect(t.refreshes()).toBe(2);
      // The calls themselves went through with the token still valid.
      expect(t.bearer()).toEqual([`Bearer ${old}`, `Bearer ${old}`, `Bearer ${old}`]);
      expect(t.tokens.get()).toBe(old);
    });

    it('a store that keeps the refresh time carries the 60-second rule to the next page load (a new client)', async () => {
      const old = server.user.token;
      const t = await setup(old, 10 * 60);
      server.failing.refresh = 503;
      let kept: number | null = null;
      const store = { ...memoryTokenStore(old), refreshedAt: () => kept, setRefreshedAt: (ms: number) => void (kept = ms) };
      const load = () => new ApiClient({ calls: callTable, baseUrl: server.url, tokens: store, clock: t.clock, http: transport });
      await load().calls.bucketList({ client: server.user.client });
      expect(t.refreshes()).toBe(1);
      expect(kept).toBe(t.clock.ms);
      // A deep link 30 s later is a new page with a new client: it reads the time and does not refresh again.
      t.clock.ms += 30_000;
      await load().calls.bucketList({ client: server.user.client });
      expect(t.refreshes()).toBe(1);
      t.clock.ms += 30_000;
      await load().calls.bucketList({ client: server.user.client });
      expect(t.refreshes()).toBe(2);
    });

    it('concurrent calls in the refresh window share one refresh', async () => {
      const old = await sessionToken(3600);
      const t = await setup(old, 60);
      await Promise.all([t.api.calls.bucketList({ client: server.user.client }), t.api.calls.bucketList({ client: server.user.client })]);
      expect(t.refreshes()).toBe(1);
      expect(server.calls.filter((c) => c === 'bucketList')).toHaveLength(2);
      // Both wait for the one refresh and go out with the new token.
      const fresh = t.tokens.get()!;
      expect(fresh).not.toBe(old);
      expect(t.bearer()).toEqual([`Bearer ${fresh}`, `Bearer ${fresh}`]);
    });

    it('login stores the token it receives', async () => {
      const { email, password } = server.user;
      const t = await setup(await sessionToken(3600));
      const res = await t.api.calls.login({ email, password });
      if (needsOtp(res)) throw new Error('This user has no two-factor sign-in');
      expect(res.login.client.list[0].stamp).toBe(server.user.client);
      expect(t.sent[0].authorization).toBe(`Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`);
      // The token in the answer replaces the one held before: a full session for this user, which the server accepts.
      const token = t.tokens.get()!;
      expect(token).toBe(res.token);
      expect(readClaims(token)?.sub).toBe(readClaims(server.user.token)?.sub);
      await t.api.calls.bucketList({ client: server.user.client });
      expect(t.bearer()).toEqual([`Bearer ${token}`]);
    });
  });

  describe('responses and errors', { timeout: 30_000 }, () => {
    it('sends every call through an injected fetch', async () => {
      const seen: string[] = [];
      const via: typeof fetch = (input, init) => {
        seen.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
        return fetch(input, init);
      };
      const api = new ApiClient({ calls: callTable, baseUrl: server.url, tokens: memoryTokenStore(server.user.token), fetch: via });
      const res = await api.calls.bucketList({ client: server.user.client });
      expect(res.client.list[0].stamp).toBe(server.user.client);
      expect(seen).toEqual([CALLS.bucketList.path]);
    });

    it('reads the permission list as the server sends it (permission.list)', async () => {
      const t = await setup(server.user.token);
      const list = await t.api.calls.permissions();
      expect(list.map((p) => [p.client.stamp, p.client.name])).toEqual([[server.user.client, server.user.name]]);
    });

    it('a failed call carries its status, the server message and the SPEC message to show', async () => {
      const t = await setup(server.user.token);
      const err = await t.api.calls.bucketCreate({ client: 'c_no_such_account', name: 'P' }).catch((e) => e);
      expect([err.status, err.code, err.display]).toEqual([404, 'not_found', 'Failed to create project. Please try again.']);
      expect(err.serverMessage).toMatch(/not found/i);
      const login = await t.api.calls.login({ email: server.user.email, password: 'Wrong-123!' }).catch((e) => e);
      expect([login.status, login.display]).toEqual([401, 'Invalid credentials']);
      // Sign-up shows the server's own reason.
      const signup = { email: server.user.email, username: `other${Date.now().toString(36)}`, password: 'Aa1!xxxx', name: 'Acme Labs' };
      const taken = await t.api.calls.signup(signup).catch((e) => e);
      expect([taken.status, taken.display]).toEqual([409, 'An account with this email address already exists.']);
      expect(taken.serverMessage).toBe(taken.display);
    });

    it("an unreachable server gives a network error with the call's message", async () => {
      const api = new ApiClient({
        calls: callTable,
        baseUrl: 'http://127.0.0.1:9',
        tokens: memoryTokenStore(server.user.token),
        http: transport,
      });
      const err = await api.calls.runList({ bucket: 'b1' }).catch((e) => e);
      expect(err.isNetwork).toBe(true);
      expect(err.display).toBe('Failed to load requests');
      const signup = await api.calls
        .signup({ email: 'a@b.co', username: 'annlee', password: 'Aa1!xxxx', name: 'Acme Labs' })
        .catch((e) => e);
      expect(signup.display).toBe('An unexpected error occurred. Please try again.');
    });
  });

  it('a cancelled call rejects with the abort, not a network error', async () => {
    const t = await setup(server.user.token);
    const stop = new AbortController();
    const pending = t.api.calls.bucketList({ client: server.user.client }, { signal: stop.signal });
    stop.abort();
    const err = await pending.catch((e) => e);
    expect(err.name).toBe('AbortError');
  });
});
