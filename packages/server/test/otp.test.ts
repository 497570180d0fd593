// Two-factor sign-in through the API as a user and as an attacker would try it: setup confirmed by a code, recovery
// codes that work once, a password step that never yields a session, challenges used once, wrong codes limited per
// account, the secret encrypted at rest, and API keys that go on working.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { OTP_MAX_FAILURES, SECURITY_MESSAGES, type CallName } from '@portal/core';
import { CALLS } from '@portal/core/contract/table';
import { call, signup, startServer, PASSWORD, type TestServer } from './harness';

const basic = (email: string, password = PASSWORD) => `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;
/** The authenticator's code `steps` time steps from now (each code is accepted once, so tests move ahead). */
const code = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

let srv: TestServer;
beforeAll(async () => {
  srv = await startServer('embedded');
});
afterAll(async () => {
  await srv?.close();
});

/** A new user with two-factor sign-in on: its secret and its recovery codes. */
async function withOtp(label: string) {
  const U = await signup(srv.url, label);
  const setup = await call(srv.url, 'otpSetup', { token: U.token });
  expect(setup.status).toBe(200);
  const { secret, uri } = setup.body.otp as { secret: string; uri: string };
  expect(uri).toMatch(/^otpauth:\/\/totp\//);
  expect(uri).toContain(`secret=${secret}`);
  const seen = await code(secret);
  const enabled = await call(srv.url, 'otpEnable', { token: U.token, body: { code: seen } });
  expect(enabled.status).toBe(200);
  return { ...U, secret, seen, recovery: enabled.body.otp.recovery as string[] };
}

describe('two-factor sign-in', () => {
  it('is turned on only by a right code, hands out ten recovery codes once, and keeps the secret encrypted', async () => {
    const U = await signup(srv.url, 'on');
    expect((await call(srv.url, 'otpStatus', { token: U.token })).body).toEqual({ otp: { enabled: false, recoveryLeft: 0 } });
    // Confirming before any setup says what to do first.
    const early = await call(srv.url, 'otpEnable', { token: U.token, body: { code: '123456' } });
    expect(early.status).toBe(400);
    expect(early.body.error.message).toBe(SECURITY_MESSAGES.otpNotSetUp);
    const { secret } = (await call(srv.url, 'otpSetup', { token: U.token })).body.otp;
    const wrong = await call(srv.url, 'otpEnable', {
      token: U.token,
      body: { code: (await code(secret)) === '000000' ? '111111' : '000000' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toBe(SECURITY_MESSAGES.otpInvalid);
    // Still off: the password alone signs in.
    expect((await call(srv.url, 'login', { headers: { authorization: basic(U.email) } })).body.token).toEqual(expect.any(String));
    const badShape = await call(srv.url, 'otpEnable', { token: U.token, body: { code: 'abc' } });
    expect(badShape.status).toBe(400);
    expect(badShape.body.error.message).toBe(SECURITY_MESSAGES.otpFormat);

    const on = await call(srv.url, 'otpEnable', { token: U.token, body: { code: await code(secret) } });
    expect(on.status).toBe(200);
    const recovery = on.body.otp.recovery as string[];
    expect(recovery).toHaveLength(10);
    expect(new Set(recovery).size).toBe(10);
    expect((await call(srv.url, 'otpStatus', { token: U.token })).body).toEqual({ otp: { enabled: true, recoveryLeft: 10 } });
    // A second setup would replace the authenticator behind the user's back: refused while it is on.
    expect((await call(srv.url, 'otpSetup', { token: U.token })).status).toBe(409);

    const row = await srv.built.services.db.selectFrom('user_otp').selectAll().where('user_stamp', '=', U.user).executeTakeFirstOrThrow();
    expect(row.secret_enc).not.toContain(secret);
    expect(srv.built.services.secrets.decrypt(row.secret_enc)).toBe(secret);
    const hashes = await srv.built.services.db.selectFrom('recovery_codes').select('code_hash').where('user_stamp', '=', U.user).execute();
    for (const c of recovery) expect(hashes.map((h) => h.code_hash).join()).not.toContain(c.replace('-', ''));
  });

  it('the password step alone never grants access to any call: it yields a challenge that no call but loginOtp accepts', async () => {
    const U = await withOtp('red');
    const first = await call(srv.url, 'login', { headers: { authorization: basic(U.email) } });
    expect(first.status).toBe(200);
    expect(first.body.token).toBeUndefined();
    expect(JSON.stringify(first.body)).not.toMatch(/"login"/);
    const challenge = first.body.otp.challenge as string;
    // Every call that takes a bearer token, with the challenge as the token: all refused, none answers data.
    for (const [name, def] of Object.entries(CALLS)) {
      if (def.auth !== 'bearer') continue;
      const r = await call(srv.url, name as CallName, { token: challenge, query: { client: U.client }, body: {} });
      expect([name, r.status]).toEqual([name, 401]);
    }
    // Nor as a reset token, nor (a forged `typ`) with the signature stripped.
    expect((await call(srv.url, 'resetFinish', { token: challenge, body: { password: 'N3w-password!' } })).status).toBe(401);
    const [h, p] = challenge.split('.');
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, typ: 'session', sid: 'x' })).toString('base64url')}.`;
    expect((await call(srv.url, 'permissions', { token: forged })).status).toBe(401);
    // The session tokens of before two-factor sign-in was turned on go on (GitHub's behaviour); a new one needs the code.
    const done = await call(srv.url, 'loginOtp', { body: { challenge, code: await code(U.secret, 1) } });
    expect(done.status).toBe(200);
    expect((await call(srv.url, 'permissions', { token: done.body.token })).status).toBe(200);
    // The challenge is spent: once more, even with a good recovery code, it signs nobody in.
    const again = await call(srv.url, 'loginOtp', { body: { challenge, code: U.recovery[0] } });
    expect(again.status).toBe(401);
    expect(again.body.error.message).toBe(SECURITY_MESSAGES.otpChallengeExpired);
  });

  it('recovery codes work once each, and a seen authenticator code is not accepted twice', async () => {
    const U = await withOtp('rec');
    const challenge = async () =>
      (await call(srv.url, 'login', { headers: { authorization: basic(U.email) } })).body.otp.challenge as string;
    const ok = await call(srv.url, 'loginOtp', { body: { challenge: await challenge(), code: U.recovery[3].toUpperCase() } });
    expect(ok.status).toBe(200);
    expect((await call(srv.url, 'otpStatus', { token: ok.body.token })).body.otp.recoveryLeft).toBe(9);
    const reused = await call(srv.url, 'loginOtp', { body: { challenge: await challenge(), code: U.recovery[3] } });
    expect(reused.status).toBe(401);
    expect(reused.body.error.message).toBe(SECURITY_MESSAGES.otpInvalid);
    // The code that turned two-factor sign-in on was seen: replayed, it is refused (the very code, not the one of the
    // moment, which is a new code once the clock has passed into the next 30-second step).
    const seen = await call(srv.url, 'loginOtp', { body: { challenge: await challenge(), code: U.seen } });
    expect(seen.status).toBe(401);
  });

  it('wrong codes end their challenge and slow the account down; other accounts are untouched (more: lockout.test.ts)', async () => {
    const U = await withOtp('lim');
    const V = await withOtp('lim2');
    const challengeOf = async (email: string) =>
      (await call(srv.url, 'login', { headers: { authorization: basic(email) } })).body.otp.challenge as string;
    const c = await challengeOf(U.email);
    const good = new Set(await Promise.all([-1, 0, 1].map((s) => code(U.secret, s))));
    const wrong = ['000000', '111111', '222222', '333333', '444444', '555555', '666666', '777777'].filter((w) => !good.has(w));
    for (let i = 0; i < OTP_MAX_FAILURES; i++) {
      const r = await call(srv.url, 'loginOtp', { body: { challenge: c, code: wrong[i] } });
      expect(r.status).toBe(401);
    }
    const spent = await call(srv.url, 'loginOtp', { body: { challenge: c, code: U.recovery[0] } });
    expect(spent.status).toBe(401);
    expect(spent.body.error.message).toBe(SECURITY_MESSAGES.otpChallengeSpent);
    // A fresh challenge does not reset the account's count: one more authenticator code is looked at, the next waits.
    const c2 = await challengeOf(U.email);
    expect((await call(srv.url, 'loginOtp', { body: { challenge: c2, code: wrong[5] } })).status).toBe(401);
    const limited = await call(srv.url, 'loginOtp', { body: { challenge: c2, code: wrong[6] } });
    expect(limited.status).toBe(429);
    expect(limited.body.error.message).toBe(SECURITY_MESSAGES.otpTooMany);
    expect(
      (await call(srv.url, 'loginOtp', { body: { challenge: await challengeOf(V.email), code: await code(V.secret, 1) } })).status,
    ).toBe(200);
  });

  it('turns off only with the password and a code; then the password signs in again; API keys work throughout', async () => {
    const U = await withOtp('off');
    const key = await call(srv.url, 'apikeyCreate', { token: U.token, body: { client: U.client, name: 'CI' } });
    expect(key.status).toBe(200);
    const keyToken = key.body.apikey.token as string;
    expect((await call(srv.url, 'permissions', { token: keyToken })).status).toBe(200);
    const wrong = await call(srv.url, 'otpDisable', { token: U.token, body: { code: 'zzzzz-zzzzz', password: PASSWORD } });
    expect(wrong.status).toBe(400);
    expect((await call(srv.url, 'otpStatus', { token: U.token })).body.otp.enabled).toBe(true);
    const off = await call(srv.url, 'otpDisable', { token: U.token, body: { code: U.recovery[9], password: PASSWORD } });
    expect(off.status).toBe(200);
    const login = await call(srv.url, 'login', { headers: { authorization: basic(U.email) } });
    expect(login.body.token).toEqual(expect.any(String));
    expect(
      (await call(srv.url, 'otpDisable', { token: U.token, body: { code: U.recovery[8], password: PASSWORD } })).body.error.message,
    ).toBe(SECURITY_MESSAGES.otpNotOn);
    expect((await call(srv.url, 'permissions', { token: keyToken })).status).toBe(200);
  });
});
