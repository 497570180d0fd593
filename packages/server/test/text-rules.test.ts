// Text that cannot attack: control and bidi characters refused by the contract, emails compared in one normal form,
// mail headers built by the mail library alone, and sign-in failures limited per account without telling who exists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, TEAM_MESSAGES } from '@portal/core';
import { call, dbKinds, mailTo, PASSWORD, sha256, signup, startServer, type TestServer } from './harness';
import { EMAIL_TAKEN } from '../src/routes/user';
import { SIGNIN_ACCOUNT_LIMIT, SIGNIN_ACCOUNT_WINDOW_S, SIGNIN_SLOW_TRIES } from '../src/auth/signin-limit';
import { newId } from '../src/ids';

const kinds = await dbKinds();
const basic = (email: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}` });
const login = (srv: TestServer, email: string, password: string) => call(srv.url, 'login', { headers: basic(email, password) });
const fresh = () =>
  newId()
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .slice(0, 12);

describe.each(kinds)('text rules on the %s database', (kind) => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startServer(kind, { worker: false });
  });
  afterAll(async () => {
    await srv?.close();
  });

  it('refuses control and bidi characters in names, titles, file names and emails with one sentence', async () => {
    const u = await signup(srv.url, 'text');
    const n = fresh();
    const refused = [
      await call(srv.url, 'signup', {
        body: { email: `a${n}@example.com`, username: `a${n}`, password: PASSWORD, name: 'Acme\x1b]0;owned\x07 Ltd' },
      }),
      await call(srv.url, 'signup', {
        body: { email: `b${n}\u202e@example.com`, username: `b${n}`, password: PASSWORD, name: 'Acme Ltd' },
      }),
      await call(srv.url, 'bucketCreate', { token: u.token, body: { client: u.client, name: 'Churn\r\nfake' } }),
      await call(srv.url, 'apikeyCreate', { token: u.token, body: { client: u.client, name: 'key\u2066' } }),
      await call(srv.url, 'inviteCreate', {
        token: u.token,
        body: { client: u.client, email: `c${n}\x1b[2J@example.com`, role: 'member' },
      }),
    ];
    for (const r of refused) expect(r.body).toEqual({ error: { code: 'invalid_input', message: MESSAGES.controlCharacters } });
    const project = await call(srv.url, 'bucketCreate', { token: u.token, body: { client: u.client, name: 'Churn' } });
    const rename = await call(srv.url, 'bucketRename', {
      token: u.token,
      body: { bucket: project.body.bucket.stamp, name: 'Churn\x9b2J' },
    });
    expect(rename.body.error.message).toBe(MESSAGES.controlCharacters);
    const upload = await call(srv.url, 'rendCreate', { token: u.token, body: { bucket: project.body.bucket.stamp, name: 'data' } });
    const file = { name: 'invoice\u202egpj.exe', size: 2, checksum: sha256('[]') };
    const registered = await call(srv.url, 'uploadRegister', {
      token: u.token,
      body: { rend: upload.body.rend.stamp, name: file.name, file },
    });
    expect(registered.status).toBe(400);
    expect(registered.body.error.message).toBe(MESSAGES.controlCharacters);
    // Ordinary text of every script passes.
    expect((await call(srv.url, 'bucketCreate', { token: u.token, body: { client: u.client, name: 'Société 東京 🚀' } })).status).toBe(200);
  });

  it('emails compare in one normal form: a look-alike is refused at sign-up, signs in and is invited as the same address', async () => {
    const n = fresh();
    const kate = `kate${n}@example.com`;
    const kelvin = `\u212Aate${n}@example.com`;
    const first = await call(srv.url, 'signup', { body: { email: kate, username: `kate${n}`, password: PASSWORD, name: 'Kate Ltd' } });
    expect(first.status).toBe(200);
    const lookalike = await call(srv.url, 'signup', {
      body: { email: kelvin, username: `kelvin${n}`, password: PASSWORD, name: 'Eve Ltd' },
    });
    expect(lookalike.status).toBe(409);
    expect(lookalike.body.error.message).toBe(EMAIL_TAKEN);
    // Signing in with another spelling of the address reaches the one account.
    const signedIn = await login(srv, kelvin.toUpperCase(), PASSWORD);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.login.user.email).toBe(kate);

    // An invitation written with the look-alike is Kate's; nobody else's account takes it.
    const owner = await signup(srv.url, 'inviter');
    const other = await signup(srv.url, 'other');
    const sent = await call(srv.url, 'inviteCreate', { token: owner.token, body: { client: owner.client, email: kelvin, role: 'member' } });
    expect(sent.status).toBe(200);
    const token = decodeURIComponent(/\/invite\?token=(\S+)/.exec(await mailTo(srv.dataDir, kelvin))![1]);
    const wrong = await call(srv.url, 'inviteAccept', { token: other.token, body: { token } });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.message).toBe(TEAM_MESSAGES.inviteOtherEmail(kelvin));
    const accepted = await call(srv.url, 'inviteAccept', { token: first.body.token, body: { token } });
    expect(accepted.status).toBe(200);
    // Kate is a member now, under any spelling.
    const again = await call(srv.url, 'inviteCreate', {
      token: owner.token,
      body: { client: owner.client, email: kate.toUpperCase(), role: 'member' },
    });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(TEAM_MESSAGES.alreadyMember(kate));
  });

  it('a CR/LF in a company name stored before the rule cannot add a header to the invitation mail', async () => {
    const owner = await signup(srv.url, 'mailer');
    await srv.built.services.db
      .updateTable('clients')
      .set({ name: 'Evil Co\r\nBcc: spy@evil.test\r\nX-Injected: yes' })
      .where('stamp', '=', owner.client)
      .execute();
    const to = `guest${fresh()}@example.com`;
    expect(
      (await call(srv.url, 'inviteCreate', { token: owner.token, body: { client: owner.client, email: to, role: 'member' } })).status,
    ).toBe(200);
    const mail = await mailTo(srv.dataDir, to);
    const headers = mail.slice(0, mail.indexOf('\n\n')).split('\n');
    expect(headers.filter((h) => /^(bcc|x-injected):/i.test(h))).toEqual([]);
    // Every header line is a header or the folded continuation of one; the subject keeps the name on its own line.
    expect(headers.every((h) => /^[A-Za-z-]+: /.test(h) || /^[ \t]/.test(h))).toBe(true);
    expect(headers.filter((h) => h.startsWith('To: '))).toEqual([`To: ${to}`]);
    expect(headers.find((h) => h.startsWith('Subject: '))).toContain('Evil Co');
  });

  it('sign-in failures are limited per account, with the same answers whether or not the account exists', async () => {
    const known = await signup(srv.url, 'locked');
    const unknown = `nobody${fresh()}@example.com`;
    const attempts = async (email: string) => {
      const answers = [];
      for (let i = 0; i <= SIGNIN_ACCOUNT_LIMIT; i++) answers.push(await login(srv, email, 'Wrong-pass1!'));
      return answers.map((r) => ({ status: r.status, body: r.body }));
    };
    const forKnown = await attempts(known.email);
    const forUnknown = await attempts(unknown);
    expect(forKnown).toEqual(forUnknown);
    expect(forKnown.slice(0, SIGNIN_ACCOUNT_LIMIT).every((r) => r.status === 401)).toBe(true);
    expect(forKnown[SIGNIN_ACCOUNT_LIMIT]).toEqual({
      status: 429,
      body: { error: { code: 'rate_limited', message: MESSAGES.signinLocked(SIGNIN_ACCOUNT_WINDOW_S / 60) } },
    });
    // The answer says how long to wait, as the per-address limit does, so clients can back off.
    const locked = await login(srv, unknown, 'Wrong-pass1!');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    // From this address the right password waits too, under any spelling of the email (other addresses: lockout.test.ts).
    expect((await login(srv, known.email.toUpperCase(), PASSWORD)).status).toBe(429);
    // Once the window is over, the right password signs in and the count starts again.
    await srv.built.services.db.updateTable('rate_limits').set({ window_start: 0 }).where('key', 'like', 'signin-%').execute();
    expect((await login(srv, known.email, PASSWORD)).status).toBe(200);
    for (let i = 0; i < SIGNIN_ACCOUNT_LIMIT - 1; i++) expect((await login(srv, known.email, 'Wrong-pass1!')).status).toBe(401);
    expect((await login(srv, known.email, PASSWORD)).status).toBe(200);
  });
});

describe('the per-account sign-in limit holds across addresses', () => {
  let srv: TestServer;
  afterAll(async () => {
    await srv?.close();
  });

  it('a guesser spreading attempts over many addresses meets the account limit: each new address is slowed, then waits', async () => {
    // Behind a trusted proxy, each X-Forwarded-For is an address of its own with AUTH_RATE_LIMIT attempts a minute.
    srv = await startServer('embedded', { worker: false, trustProxy: true, authRateLimit: 3 });
    const target = await signup(srv.url, 'spread');
    const statuses: number[] = [];
    for (let i = 0; i < SIGNIN_ACCOUNT_LIMIT + SIGNIN_SLOW_TRIES + 1; i++) {
      // Two attempts per address up to the account's limit, then all from one new address.
      const from = { 'x-forwarded-for': `198.51.100.${i < SIGNIN_ACCOUNT_LIMIT ? 1 + Math.floor(i / 2) : 99}` };
      const r = await call(srv.url, 'login', { headers: { ...basic(target.email, 'Wrong-pass1!'), ...from } });
      statuses.push(r.status);
    }
    // No address reached its own limit of 3; past the account's limit of 10 a new address had its few tries, then waited.
    expect(statuses).toEqual([...Array(SIGNIN_ACCOUNT_LIMIT + SIGNIN_SLOW_TRIES).fill(401), 429]);
  });
});
