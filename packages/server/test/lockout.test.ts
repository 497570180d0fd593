// Throttling that cannot be turned against the owner (OWASP's authentication cheat sheet), as the red team tried it:
// wrong passwords from one address make that address wait, not the owner elsewhere (even while they race in); a
// stolen session's wrong codes through otp/disable and delete lock nothing; an account guessed from many
// addresses slows down for addresses it does not know; wrong two-factor codes end their challenge and slow the
// account's authenticator codes while recovery codes keep working; codes racing each other never get more looks than
// the limit; turning two-factor sign-in off asks the password; recovery codes are kept salted. Behind a trusted proxy,
// so each request names its address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { ACCOUNT_MESSAGES, MESSAGES, OTP_CHALLENGE_TRIES, OTP_MAX_FAILURES, SECURITY_MESSAGES } from '@portal/core';
import { SIGNIN_ACCOUNT_LIMIT, SIGNIN_ADDRESS_LIMIT, SIGNIN_SLOW_MS, SIGNIN_SLOW_TRIES } from '../src/auth/signin-limit';
import { sha256Hex } from '../src/auth/secrets';
import { addMember, call, dbKinds, mailsTo, signup, startServer, waitFor, PASSWORD, type TestServer } from './harness';

const kinds = await dbKinds();
const WRONG = 'Wrong-pass1!';
const basic = (email: string, password = PASSWORD) => `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;
const totp = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
/** Six digits no step the server accepts (one either side of now) would show. */
async function wrongCode(secret: string, n = 0): Promise<string> {
  const good = new Set(await Promise.all([-1, 0, 1, 2].map((s) => totp(secret, s))));
  const wrong = Array.from({ length: 20 }, (_, i) => String((i * 37_037 + n * 111_111) % 1_000_000).padStart(6, '0')).filter(
    (c) => !good.has(c),
  );
  return wrong[0];
}

describe.each(kinds)('throttling on the %s database', (kind) => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startServer(kind, { worker: false, trustProxy: true });
  });
  afterAll(async () => {
    await srv?.close();
  });

  const login = (email: string, password: string, from?: string) =>
    call(srv.url, 'login', { headers: { authorization: basic(email, password), ...(from ? { 'x-forwarded-for': from } : {}) } });
  const mailAbout = (email: string, subject: string) =>
    waitFor(async () => (await mailsTo(srv.dataDir, email)).find((m) => m.includes(`Subject: ${subject}`)));

  async function withOtp(label: string) {
    const U = await signup(srv.url, label);
    const { secret } = (await call(srv.url, 'otpSetup', { token: U.token })).body.otp as { secret: string };
    const on = await call(srv.url, 'otpEnable', { token: U.token, body: { code: await totp(secret) } });
    expect(on.status).toBe(200);
    return { ...U, secret, recovery: on.body.otp.recovery as string[] };
  }
  const challengeOf = async (email: string) => {
    const r = await login(email, PASSWORD);
    expect(r.status).toBe(200);
    return r.body.otp.challenge as string;
  };

  it("eleven wrong passwords from address A: A waits, the owner's right password from B and from a known address signs in", async () => {
    const U = await signup(srv.url, 'lockA');
    const V = await signup(srv.url, 'lockV');
    const A = '203.0.113.7';
    const statuses: number[] = [];
    for (let i = 0; i <= SIGNIN_ADDRESS_LIMIT; i++) statuses.push((await login(U.email, WRONG, A)).status);
    expect(statuses).toEqual([...Array(SIGNIN_ADDRESS_LIMIT).fill(401), 429]);
    const refused = await login(U.email, PASSWORD, A);
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toBe(MESSAGES.signinLocked(15));
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another address (never seen by this account) and the address the account signed up from: both sign in.
    const fromB = await login(U.email, PASSWORD, '198.51.100.9');
    expect(fromB.status).toBe(200);
    expect(fromB.body.token).toEqual(expect.any(String));
    expect((await login(U.email, PASSWORD)).status).toBe(200);
    // A's count is U's: another account signs in from A.
    expect((await login(V.email, PASSWORD, A)).status).toBe(200);
    // The owner hears of it.
    expect(await mailAbout(U.email, 'Many wrong passwords for your account')).toContain('you can still sign in as usual');
  });

  it("while an attacker hammers the account from A with wrong passwords sent at once, the owner's right password signs in from B", async () => {
    const U = await signup(srv.url, 'hammer');
    const A = '203.0.113.21';
    let stop = false;
    const attacker = async () => {
      const seen: number[] = [];
      while (!stop) seen.push(...(await Promise.all(Array.from({ length: 6 }, () => login(U.email, WRONG, A)))).map((r) => r.status));
      return seen;
    };
    const attack = attacker();
    try {
      // The owner signs in again and again (a new address, then the one it has just used) while the guesses race.
      for (let i = 0; i < 4; i++) {
        const owner = await login(U.email, PASSWORD, '198.51.100.77');
        expect(owner.status, JSON.stringify(owner.body)).toBe(200);
      }
    } finally {
      stop = true;
    }
    const statuses = await attack;
    // The attacker's own address ends up waiting; none of its guesses was let through.
    expect(statuses.every((st) => st === 401 || st === 429)).toBe(true);
    expect(statuses.filter((st) => st === 401).length).toBeLessThanOrEqual(SIGNIN_ADDRESS_LIMIT);
    expect((await login(U.email, PASSWORD, '198.51.100.77')).status).toBe(200);
  });

  it('a stolen session sending wrong codes through otp/disable and delete locks nothing: the owner signs in with a code', async () => {
    const U = await withOtp('stolen');
    const thief = { 'x-forwarded-for': '203.0.113.66' };
    for (let i = 0; i < OTP_MAX_FAILURES * 2; i++) {
      const code = await wrongCode(U.secret, i);
      const noPassword = await call(srv.url, 'otpDisable', { token: U.token, headers: thief, body: { code } });
      expect(noPassword.status).toBe(400);
      const wrongPassword = await call(srv.url, 'otpDisable', { token: U.token, headers: thief, body: { code, password: WRONG } });
      expect([400, 429]).toContain(wrongPassword.status);
      const deletion = await call(srv.url, 'accountDelete', { token: U.token, headers: thief, body: { code } });
      expect(deletion.status).toBe(400);
    }
    // Still on, and the owner's authenticator code (not only a recovery code) signs in at once.
    expect((await call(srv.url, 'otpStatus', { token: U.token })).body.otp).toEqual({ enabled: true, recoveryLeft: 10 });
    const challenge = await challengeOf(U.email);
    // (The next step's code: the current one turned two-factor sign-in on, and a code is taken once.)
    const owner = await call(srv.url, 'loginOtp', { body: { challenge, code: await totp(U.secret, 1) } });
    expect(owner.status, JSON.stringify(owner.body)).toBe(200);
  });

  it('an account guessed from many addresses slows down for addresses it does not know, never for one it knows', async () => {
    const U = await signup(srv.url, 'spread');
    for (let i = 0; i < SIGNIN_ACCOUNT_LIMIT; i++) {
      expect((await login(U.email, WRONG, `198.51.100.${10 + Math.floor(i / 2)}`)).status).toBe(401);
    }
    // Over the account's limit: a new address gets SIGNIN_SLOW_TRIES attempts, each answered after a pause, then waits.
    const fresh = '198.51.100.99';
    for (let i = 0; i < SIGNIN_SLOW_TRIES; i++) {
      const t0 = Date.now();
      expect((await login(U.email, WRONG, fresh)).status).toBe(401);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(SIGNIN_SLOW_MS - 50);
    }
    expect((await login(U.email, PASSWORD, fresh)).status).toBe(429);
    // The address the account knows is not slowed (the wait is not there) and signs in.
    const t0 = Date.now();
    expect((await login(U.email, PASSWORD)).status).toBe(200);
    expect(Date.now() - t0).toBeLessThan(SIGNIN_SLOW_MS);
    // An unknown email gets the same answers (the count is by email whether or not an account has it).
    const nobody = `nobody${Date.now()}@example.com`;
    for (let i = 0; i < SIGNIN_ACCOUNT_LIMIT; i++)
      expect((await login(nobody, WRONG, `192.0.2.${10 + Math.floor(i / 2)}`)).status).toBe(401);
    expect((await login(nobody, WRONG, fresh)).status).toBe(401);
    expect((await login(nobody, WRONG, fresh)).status).toBe(401);
    expect((await login(nobody, WRONG, fresh)).status).toBe(429);
  });

  it('five wrong codes do not block the recovery code; a challenge ends after its tries; the owner is mailed', async () => {
    const U = await withOtp('codes');
    const c1 = await challengeOf(U.email);
    for (let i = 0; i < OTP_MAX_FAILURES; i++) {
      const r = await call(srv.url, 'loginOtp', { body: { challenge: c1, code: await wrongCode(U.secret, i) } });
      expect(r.status).toBe(401);
      expect(r.body.error.message).toBe(SECURITY_MESSAGES.otpInvalid);
    }
    expect(OTP_CHALLENGE_TRIES).toBe(OTP_MAX_FAILURES);
    // The challenge is out of tries: even a recovery code on it is refused, and the sign-in starts again.
    const spent = await call(srv.url, 'loginOtp', { body: { challenge: c1, code: U.recovery[0] } });
    expect(spent.status).toBe(401);
    expect(spent.body.error.message).toBe(SECURITY_MESSAGES.otpChallengeSpent);
    // A new sign-in: the account is slowed, one authenticator code is looked at per OTP_SLOW_S, the next waits...
    const c2 = await challengeOf(U.email);
    expect((await call(srv.url, 'loginOtp', { body: { challenge: c2, code: await wrongCode(U.secret, 9) } })).status).toBe(401);
    const slowed = await call(srv.url, 'loginOtp', { body: { challenge: c2, code: await totp(U.secret, 1) } });
    expect(slowed.status).toBe(429);
    expect(slowed.body.error.message).toBe(SECURITY_MESSAGES.otpTooMany);
    // ... while a recovery code signs in at once.
    const rec = await call(srv.url, 'loginOtp', { body: { challenge: c2, code: U.recovery[0] } });
    expect(rec.status).toBe(200);
    expect(rec.body.token).toEqual(expect.any(String));
    expect(await mailAbout(U.email, 'Many wrong two-factor codes for your account')).toContain('recovery codes work as before');
    // A right sign-in started the count again: the authenticator's code is looked at as before.
    const c3 = await challengeOf(U.email);
    expect((await call(srv.url, 'loginOtp', { body: { challenge: c3, code: await totp(U.secret, 1) } })).status).toBe(200);
  });

  it('wrong codes sent at once never get more looks than the limit', async () => {
    const U = await withOtp('race');
    const challenges = await Promise.all([0, 1, 2].map(() => challengeOf(U.email)));
    const codes = await Promise.all(Array.from({ length: 12 }, (_, i) => wrongCode(U.secret, i)));
    const answers = await Promise.all(codes.map((code, i) => call(srv.url, 'loginOtp', { body: { challenge: challenges[i % 3], code } })));
    const looked = answers.filter((r) => r.status === 401 && r.body.error.message === SECURITY_MESSAGES.otpInvalid).length;
    const limited = answers.filter((r) => r.status === 429).length;
    // OTP_MAX_FAILURES looks, and the one look the slow-down allows in its window; every other code waited.
    expect(looked).toBe(OTP_MAX_FAILURES + 1);
    expect(limited).toBe(12 - looked);
    const row = await srv.built.services.db
      .selectFrom('rate_limits')
      .select('count')
      .where('key', '=', `otp|${U.user}`)
      .executeTakeFirstOrThrow();
    expect(Number(row.count)).toBe(12);
  });

  it('turning two-factor sign-in off asks the password, counted as a sign-in; a stolen session alone cannot', async () => {
    const U = await withOtp('off');
    const without = await call(srv.url, 'otpDisable', { token: U.token, body: { code: U.recovery[0] } });
    expect(without.status).toBe(400);
    expect(without.body.error.message).toContain(ACCOUNT_MESSAGES.passwordRequired);
    const wrong = await call(srv.url, 'otpDisable', { token: U.token, body: { code: U.recovery[0], password: WRONG } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toBe(ACCOUNT_MESSAGES.passwordWrong);
    // Nothing was spent or turned off by the refusals.
    expect((await call(srv.url, 'otpStatus', { token: U.token })).body.otp).toEqual({ enabled: true, recoveryLeft: 10 });
    // Account deletion asks the password too.
    expect((await call(srv.url, 'accountDelete', { token: U.token, body: { code: U.recovery[1] } })).status).toBe(400);
    const off = await call(srv.url, 'otpDisable', { token: U.token, body: { code: U.recovery[0], password: PASSWORD } });
    expect(off.status).toBe(200);
    expect((await call(srv.url, 'otpStatus', { token: U.token })).body.otp.enabled).toBe(false);
  });

  it('keeps recovery codes as salted hashes, and still takes a code kept the old way', async () => {
    const U = await withOtp('salt');
    const db = srv.built.services.db;
    const rows = await db.selectFrom('recovery_codes').select('code_hash').where('user_stamp', '=', U.user).execute();
    expect(rows).toHaveLength(10);
    expect(rows.every((r) => r.code_hash.startsWith('scrypt$'))).toBe(true);
    // Each with its own salt: no two hashes share one.
    expect(new Set(rows.map((r) => r.code_hash.split('$')[1])).size).toBe(10);
    // A code hashed before salting (unsalted SHA-256) goes on working, once.
    const old = 'k3x9p-2mq7z';
    await db
      .insertInto('recovery_codes')
      .values({ user_stamp: U.user, code_hash: sha256Hex(`recovery:${U.user}:k3x9p2mq7z`), used_at: null })
      .execute();
    expect((await call(srv.url, 'loginOtp', { body: { challenge: await challengeOf(U.email), code: old } })).status).toBe(200);
    expect((await call(srv.url, 'loginOtp', { body: { challenge: await challengeOf(U.email), code: old } })).status).toBe(401);
  });

  it("a member's sign-in from a new address and account changes are in the member's own log and export, not the owner's", async () => {
    const owner = await signup(srv.url, 'owner');
    const member = await signup(srv.url, 'member');
    await addMember(srv, member.user, owner.client);
    expect((await login(member.email, PASSWORD, '203.0.113.44')).status).toBe(200);
    const changed = await call(srv.url, 'passwordChange', {
      token: member.token,
      body: { current: PASSWORD, password: 'An0ther-secret!' },
    });
    expect(changed.status).toBe(200);
    // The owner's audit log and export: nothing of the member's sign-ins, addresses or password.
    const audit = await call(srv.url, 'audit', { token: owner.token, query: { client: owner.client, limit: 200 } });
    expect(audit.status).toBe(200);
    const ownerText = JSON.stringify(audit.body);
    expect(ownerText).not.toContain('203.0.113.44');
    expect(ownerText).not.toMatch(/signin\.new-address|password\.change/);
    const ownerExport = await fetch(`${srv.url}/api/user/export`, { headers: { authorization: `Bearer ${owner.token}` } });
    expect(ownerExport.status).toBe(200);
    const ownerFile = await ownerExport.text();
    expect(ownerFile).not.toContain('203.0.113.44');
    expect(JSON.parse(ownerFile).events).toEqual([]);
    // The member's own log and export have them, newest first, a page at a time.
    const mine = await call(srv.url, 'accountEvents', { token: member.token, query: { limit: 1 } });
    expect(mine.status).toBe(200);
    expect(mine.body.event.list.map((e: { action: string }) => e.action)).toEqual(['password.change']);
    const older = await call(srv.url, 'accountEvents', { token: member.token, query: { limit: 1, cursor: mine.body.event.next } });
    expect(older.body.event.list[0]).toMatchObject({ action: 'signin.new-address', target: '203.0.113.44' });
    const memberExport = await fetch(`${srv.url}/api/user/export`, { headers: { authorization: `Bearer ${member.token}` } });
    const events = (JSON.parse(await memberExport.text()).events as Array<{ action: string }>).map((e) => e.action);
    expect(events).toEqual(expect.arrayContaining(['signin.new-address', 'password.change']));
  });
});
