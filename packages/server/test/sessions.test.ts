// Sessions you can see, through the API on each database: the list marks this session and shows what the server saw;
// ending another session makes its token useless at once; ending every other session keeps this one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallResponse } from '@portal/core';
import { call, dbKinds, signup, startServer, PASSWORD, type TestServer } from './harness';

const kinds = await dbKinds();
const basic = (email: string) => `Basic ${Buffer.from(`${email}:${PASSWORD}`).toString('base64')}`;

describe.each(kinds)('sessions on the %s database', (kind) => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startServer(kind);
  });
  afterAll(async () => {
    await srv?.close();
  });

  const signIn = async (email: string, agent: string) => {
    const r = await call(srv.url, 'login', { headers: { authorization: basic(email), 'user-agent': agent } });
    expect(r.status).toBe(200);
    return r.body.token as string;
  };
  const list = async (token: string) => {
    const r = await call<CallResponse<'sessionList'>>(srv.url, 'sessionList', { token });
    expect(r.status).toBe(200);
    return r.body.session.list;
  };

  it('a session that only reads lists shows when it was last used, written at most once a minute', async () => {
    const U = await signup(srv.url, 'lister');
    const script = await signIn(U.email, 'Script/1.0');
    const lastUsed = async () => {
      const row = await srv.built.services.db
        .selectFrom('sessions')
        .select('last_used_at')
        .where('user_agent', '=', 'Script/1.0')
        .where('user_stamp', '=', U.user)
        .executeTakeFirstOrThrow();
      return Number(row.last_used_at);
    };
    const setLastUsed = (at: number) =>
      srv.built.services.db.updateTable('sessions').set({ last_used_at: at }).where('user_agent', '=', 'Script/1.0').execute();
    // The project list reads the session in its own statement (it does not pass through the per-call check).
    const projects = () => call(srv.url, 'bucketList', { token: script, query: { client: U.client } });
    const anHourAgo = Math.floor(Date.now() / 1000) - 3600;
    await setLastUsed(anHourAgo);
    expect((await projects()).status).toBe(200);
    const after = await lastUsed();
    expect(after).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) - 5);
    // Within the minute, more calls write nothing.
    await setLastUsed(after - 30);
    expect((await projects()).status).toBe(200);
    expect(await lastUsed()).toBe(after - 30);
  });

  it('lists the sessions with this one marked, and ending another makes its token 401 at once', async () => {
    const U = await signup(srv.url, 'seen');
    const laptop = await signIn(U.email, 'Laptop/1.0');
    const phone = await signIn(U.email, 'Phone/2.0');
    const seen = await list(laptop);
    expect(seen).toHaveLength(3);
    const mine = seen.filter((x) => x.current);
    expect(mine).toHaveLength(1);
    expect(mine[0].userAgent).toBe('Laptop/1.0');
    expect(mine[0].address).toMatch(/127\.0\.0\.1|::1/);
    const other = seen.find((x) => x.userAgent === 'Phone/2.0')!;
    expect(other.current).toBe(false);
    expect(other.createdAt).toBeGreaterThan(0);
    expect(other.lastUsedAt).toBeGreaterThanOrEqual(other.createdAt);

    // Another user cannot end it, and learns nothing of it.
    const stranger = await signup(srv.url, 'stranger');
    expect((await call(srv.url, 'sessionEnd', { token: stranger.token, body: { id: other.id } })).status).toBe(404);
    expect((await call(srv.url, 'sessionList', { token: phone })).status).toBe(200);

    const ended = await call(srv.url, 'sessionEnd', { token: laptop, body: { id: other.id } });
    expect(ended.status).toBe(200);
    expect(ended.body).toEqual({ ended: 1 });
    expect((await call(srv.url, 'sessionList', { token: phone })).status).toBe(401);
    expect((await list(laptop)).map((x) => x.id)).not.toContain(other.id);
    // Ending it again says it is not there.
    const again = await call(srv.url, 'sessionEnd', { token: laptop, body: { id: other.id } });
    expect(again.status).toBe(404);
    expect(again.body.error.message).toBe('Session not found');
    // A hostile id is refused with a sentence, not a 500.
    const bad = await call(srv.url, 'sessionEnd', { token: laptop, body: { id: 'x'.repeat(10_000) } });
    expect(bad.status).toBe(400);
  });

  it('ends every other session and keeps this one', async () => {
    const U = await signup(srv.url, 'others');
    const a = await signIn(U.email, 'A');
    const b = await signIn(U.email, 'B');
    const r = await call(srv.url, 'sessionEndOthers', { token: a });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ended: 2 });
    expect((await call(srv.url, 'sessionList', { token: b })).status).toBe(401);
    expect((await call(srv.url, 'sessionList', { token: U.token })).status).toBe(401);
    const left = await list(a);
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ current: true, userAgent: 'A' });
  });
});
