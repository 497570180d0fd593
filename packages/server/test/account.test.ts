// Account changes, export and deletion through the API (issue 30, steps 3-6), as a user and as an attacker would try
// them: a password change that ends the other sessions, an email change that takes effect only through the link
// mailed to the new address, an export with everything and no secret, a deletion that refuses to orphan a team, and
// the audit lines and mails of every account-security event. Behind a trusted proxy, so a sign-in can come from a
// new address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { ACCOUNT_MESSAGES, EMAIL_CONFIRM_PATH, MESSAGES, SECURITY_MESSAGES, type AuditEntry, type CallName } from '@portal/core';
import { exportText } from '../src/routes/accountExport';
import { addMember, call, mailTo, mailsTo, signup, startServer, waitFor, PASSWORD, type TestServer } from './harness';

const NEW_PASSWORD = 'An0ther-secret!';
const basic = (email: string, password = PASSWORD) => `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;
const code = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

let srv: TestServer;
beforeAll(async () => {
  srv = await startServer('embedded', { trustProxy: true });
});
afterAll(async () => {
  await srv?.close();
});

const login = (email: string, password = PASSWORD, from?: string) =>
  call(srv.url, 'login', { headers: { authorization: basic(email, password), ...(from ? { 'x-forwarded-for': from } : {}) } });
/** The actions of the user's own log (account-security events), newest first. */
const events = async (token: string) => {
  const r = await call(srv.url, 'accountEvents', { token, query: { limit: 200 } });
  expect(r.status).toBe(200);
  return (r.body.event.list as Array<{ action: string }>).map((e) => e.action);
};
const actions = async (token: string, client: string) => {
  const r = await call(srv.url, 'audit', { token, query: { client, limit: 200 } });
  expect(r.status).toBe(200);
  return (r.body.audit.list as AuditEntry[]).map((e) => e.action);
};
/** The mails to an address whose subject is this one (mail goes out in the background). */
const mailAbout = (email: string, subject: string) =>
  waitFor(async () => (await mailsTo(srv.dataDir, email)).find((m) => m.includes(`Subject: ${subject}`)));

describe('change password', () => {
  it('asks the current password, follows the sign-up rule, ends every other session, is audited and mailed', async () => {
    const U = await signup(srv.url, 'pw');
    const other = (await login(U.email)).body.token as string;

    const wrong = await call(srv.url, 'passwordChange', { token: U.token, body: { current: 'Not-the-one1!', password: NEW_PASSWORD } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toBe(ACCOUNT_MESSAGES.passwordWrong);
    const weak = await call(srv.url, 'passwordChange', { token: U.token, body: { current: PASSWORD, password: 'short' } });
    expect(weak.status).toBe(400);
    expect(weak.body.error.message).toBe(MESSAGES.password);
    const same = await call(srv.url, 'passwordChange', { token: U.token, body: { current: PASSWORD, password: PASSWORD } });
    expect(same.status).toBe(400);
    expect(same.body.error.message).toBe(ACCOUNT_MESSAGES.passwordSame);
    const missing = await call(srv.url, 'passwordChange', { token: U.token, body: { password: NEW_PASSWORD } });
    expect(missing.status).toBe(400);

    const ok = await call(srv.url, 'passwordChange', { token: U.token, body: { current: PASSWORD, password: NEW_PASSWORD } });
    expect(ok.status).toBe(200);
    expect(ok.body.ended).toBe(1);
    // This session stays; the other one is over at once.
    expect((await call(srv.url, 'accountShow', { token: U.token })).status).toBe(200);
    expect((await call(srv.url, 'accountShow', { token: other })).status).toBe(401);
    expect((await login(U.email)).status).toBe(401);
    expect((await login(U.email, NEW_PASSWORD)).status).toBe(200);
    expect(await events(U.token)).toContain('password.change');
    expect(await mailAbout(U.email, 'Your password was changed')).toContain('Every other session of the account was signed out');
  });
});

describe('change email', () => {
  it('takes effect only through the link mailed to the new address, once; the old address hears of it', async () => {
    const U = await signup(srv.url, 'em');
    const taken = await signup(srv.url, 'taken');
    const fresh = `new-${U.username}@example.com`;

    const wrong = await call(srv.url, 'emailChange', { token: U.token, body: { email: fresh, password: 'Not-the-one1!' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toBe(ACCOUNT_MESSAGES.passwordWrong);
    const same = await call(srv.url, 'emailChange', { token: U.token, body: { email: U.email.toUpperCase(), password: PASSWORD } });
    expect(same.status).toBe(400);
    expect(same.body.error.message).toBe(ACCOUNT_MESSAGES.emailSame);
    // In core's normal form: another account's address in capitals (or with a Kelvin sign) is that address.
    const inUse = await call(srv.url, 'emailChange', {
      token: U.token,
      body: { email: ` ${taken.email.toUpperCase()}`, password: PASSWORD },
    });
    expect(inUse.status).toBe(409);
    expect(inUse.body.error.message).toBe(ACCOUNT_MESSAGES.emailTaken);
    const bad = await call(srv.url, 'emailChange', { token: U.token, body: { email: 'not an address', password: PASSWORD } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe(MESSAGES.email);

    // A first request, then a second: the second withdraws the first link.
    const first = await call(srv.url, 'emailChange', { token: U.token, body: { email: `first-${fresh}`, password: PASSWORD } });
    expect(first.status).toBe(200);
    const firstLink = await mailAbout(`first-${fresh}`, 'Confirm your new email address');
    const asked = await call(srv.url, 'emailChange', { token: U.token, body: { email: fresh, password: PASSWORD } });
    expect(asked.status).toBe(200);
    expect(asked.body.account.email).toBe(U.email);
    expect(asked.body.account.pendingEmail.email).toBe(fresh);
    const mail = await mailAbout(fresh, 'Confirm your new email address');
    const tokenOf = (m: string) => decodeURIComponent(new RegExp(`${EMAIL_CONFIRM_PATH}\\?token=(\\S+)`).exec(m)![1]);
    expect(mail).toContain(`${srv.url}${EMAIL_CONFIRM_PATH}?token=`);
    expect(await mailAbout(U.email, 'A change of your email address was asked')).toContain(fresh);
    const withdrawn = await call(srv.url, 'emailConfirm', { body: { token: tokenOf(firstLink) } });
    expect(withdrawn.status).toBe(400);
    expect(withdrawn.body.error.message).toBe(ACCOUNT_MESSAGES.emailLinkInvalid);
    // Not changed until the link is opened.
    expect((await login(U.email)).status).toBe(200);
    // A reset token or a session token is not a confirmation.
    expect((await call(srv.url, 'emailConfirm', { body: { token: U.token } })).status).toBe(400);

    const confirmed = await call(srv.url, 'emailConfirm', { body: { token: tokenOf(mail) } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.email).toBe(fresh);
    const again = await call(srv.url, 'emailConfirm', { body: { token: tokenOf(mail) } });
    expect(again.status).toBe(400);
    expect(again.body.error.message).toBe(ACCOUNT_MESSAGES.emailLinkInvalid);
    expect((await login(U.email)).status).toBe(401);
    expect((await login(fresh)).status).toBe(200);
    const shown = await call(srv.url, 'accountShow', { token: U.token });
    expect(shown.body.account).toMatchObject({ email: fresh, pendingEmail: null });
    expect(await events(U.token)).toEqual(expect.arrayContaining(['email.change.start', 'email.change']));
    expect(await mailAbout(U.email, 'Your email address was changed')).toContain(`to ${fresh}`);
    expect(await mailAbout(fresh, 'Your email address was changed')).toContain(`from ${U.email}`);
    // The session's refreshed token carries the new address.
    const refreshed = await call(srv.url, 'refresh', { token: U.token });
    expect(JSON.parse(Buffer.from(refreshed.body.token.split('.')[1], 'base64url').toString()).email).toBe(fresh);
  });

  it('is cancelled by the account, and refuses an address taken before the link is opened', async () => {
    const U = await signup(srv.url, 'cx');
    const fresh = `cx-${U.username}@example.com`;
    await call(srv.url, 'emailChange', { token: U.token, body: { email: fresh, password: PASSWORD } });
    const link = await mailAbout(fresh, 'Confirm your new email address');
    const token = decodeURIComponent(/\?token=(\S+)/.exec(link)![1]);
    const cancelled = await call(srv.url, 'emailChangeCancel', { token: U.token });
    expect(cancelled.body.account.pendingEmail).toBeNull();
    expect((await call(srv.url, 'emailConfirm', { body: { token } })).status).toBe(400);

    const later = `later-${U.username}@example.com`;
    await call(srv.url, 'emailChange', { token: U.token, body: { email: later, password: PASSWORD } });
    const token2 = decodeURIComponent(/\?token=(\S+)/.exec(await mailAbout(later, 'Confirm your new email address'))![1]);
    // Someone signs up with that address meanwhile.
    const r = await call(srv.url, 'signup', {
      body: { email: later, username: `l${U.username}`.slice(0, 30), password: PASSWORD, name: 'Other' },
    });
    expect(r.status).toBe(200);
    const refused = await call(srv.url, 'emailConfirm', { body: { token: token2 } });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(ACCOUNT_MESSAGES.emailTaken);
  });
});

describe('export', () => {
  it('is one JSON download with everything the account holds and no secret or token', async () => {
    const U = await signup(srv.url, 'ex');
    const stranger = await signup(srv.url, 'stranger');
    const project = (await call(srv.url, 'bucketCreate', { token: U.token, body: { client: U.client, name: 'Export me' } })).body.bucket;
    const key = (await call(srv.url, 'apikeyCreate', { token: U.token, body: { client: U.client, name: 'Export key' } })).body.apikey;
    await call(srv.url, 'integrationCreate', {
      token: U.token,
      body: { client: U.client, name: 'LLM', service: 'OpenAI', token: 'sk-very-secret-integration-token' },
    });
    const hook = await call(srv.url, 'webhookCreate', {
      token: U.token,
      body: { client: U.client, name: 'Receiver', url: 'https://example.com/hooks', events: ['run.finished'] },
    });
    expect(hook.status).toBe(200);
    await call(srv.url, 'bucketCreate', { token: stranger.token, body: { client: stranger.client, name: 'Not yours' } });

    const res = await fetch(new URL('/api/user/export', srv.url), { headers: { authorization: `Bearer ${U.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(
      new RegExp(`^attachment; filename="portal-${U.username}-\\d{4}-\\d\\d-\\d\\d\\.json"$`),
    );
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = await res.text();
    const data = JSON.parse(text);
    expect(data).toMatchObject({ format: 'portal-account-export', version: 1, user: { email: U.email, username: U.username, otp: false } });
    expect(data.clients).toEqual([expect.objectContaining({ stamp: U.client, role: 'owner' })]);
    expect(data.projects).toEqual([expect.objectContaining({ stamp: project.stamp, name: 'Export me' })]);
    expect(data.apikeys).toEqual([expect.objectContaining({ id: key.clue, name: 'Export key' })]);
    expect(data.integrations).toEqual([expect.objectContaining({ name: 'LLM', service: 'OpenAI' })]);
    expect(data.webhooks).toEqual([
      expect.objectContaining({ name: 'Receiver', url: 'https://example.com/hooks', events: ['run.finished'], state: 'active' }),
    ]);
    expect(data.audit.map((a: { action: string }) => a.action)).toEqual(
      expect.arrayContaining(['member.join', 'project.create', 'apikey.create']),
    );
    expect(data.truncated).toEqual([]);
    // Never a secret: no key token, no integration token, no password hash; nothing of another account.
    expect(text).not.toContain(key.token);
    expect(text).not.toContain('sk-very-secret-integration-token');
    expect(text).not.toContain(hook.body.secret);
    expect(text).not.toMatch(/scrypt\$|token_enc|install_secret|password/);
    expect(text).not.toContain('Not yours');
    // Through the route table too: the answer matches the contract's schema (the harness checks every answer).
    expect((await call(srv.url, 'accountExport', { token: U.token })).status).toBe(200);
  });
});

describe('export limits', () => {
  it('pages through each section and cuts a section at the row limit, naming it', async () => {
    const U = await signup(srv.url, 'pages');
    for (const name of ['One', 'Two', 'Three']) {
      expect((await call(srv.url, 'bucketCreate', { token: U.token, body: { client: U.client, name } })).status).toBe(200);
    }
    const text = async (rows: number, page: number) => {
      let out = '';
      for await (const piece of exportText(srv.built.services, U.user, { format: 'portal-account-export' }, { rows, page })) out += piece;
      return JSON.parse(out);
    };
    // Pages of one row, all three: nothing cut (the limit met at a page's end, and no row after it).
    const whole = await text(3, 1);
    expect(whole.projects.map((p: { name: string }) => p.name)).toEqual(['One', 'Two', 'Three']);
    expect(whole.truncated).not.toContain('projects');
    const same = await text(3, 3);
    expect(same.projects).toHaveLength(3);
    expect(same.truncated).not.toContain('projects');
    // Two at most: cut, and said so.
    const cut = await text(2, 2);
    expect(cut.projects.map((p: { name: string }) => p.name)).toEqual(['One', 'Two']);
    expect(cut.truncated).toContain('projects');
    expect(cut.clients).toHaveLength(1);
    expect(cut.truncated).not.toContain('clients');
  });
});

describe('delete account', () => {
  it('refuses while the user is the last owner of a client with other members, saying what to do', async () => {
    const owner = await signup(srv.url, 'last');
    const member = await signup(srv.url, 'member');
    await addMember(srv, member.user, owner.client);
    // With two-factor sign-in on, the refusal comes before the code is spent (a recovery code works once).
    const { secret } = (await call(srv.url, 'otpSetup', { token: owner.token })).body.otp;
    const recovery = (await call(srv.url, 'otpEnable', { token: owner.token, body: { code: await code(secret) } })).body.otp.recovery;
    const refused = await call(srv.url, 'accountDelete', { token: owner.token, body: { password: PASSWORD, code: recovery[0] } });
    expect(refused.status).toBe(409);
    expect((await call(srv.url, 'otpStatus', { token: owner.token })).body.otp.recoveryLeft).toBe(10);
    expect(refused.body.error.message).toBe(ACCOUNT_MESSAGES.lastOwner([`Company ${owner.username}`]));
    expect(refused.body.error.message).toContain('Make another member an owner, or remove the other members');
    // The member may go: the owner's client stays with its owner.
    const left = await call(srv.url, 'accountDelete', { token: member.token, body: { password: PASSWORD } });
    expect(left.status).toBe(200);
    expect(left.body.clients).toEqual([member.client]);
    const members = await call(srv.url, 'memberList', { token: owner.token, query: { client: owner.client } });
    expect(members.body.member.list).toHaveLength(1);
    expect(await actions(owner.token, owner.client)).toContain('account.delete');
  });

  it('asks the password and, with two-factor sign-in on, a code; then signs out everywhere and removes the lone client', async () => {
    const U = await signup(srv.url, 'del');
    const key = (await call(srv.url, 'apikeyCreate', { token: U.token, body: { client: U.client, name: 'k' } })).body.apikey;
    const { secret } = (await call(srv.url, 'otpSetup', { token: U.token })).body.otp;
    expect((await call(srv.url, 'otpEnable', { token: U.token, body: { code: await code(secret) } })).status).toBe(200);

    const wrong = await call(srv.url, 'accountDelete', {
      token: U.token,
      body: { password: 'Not-the-one1!', code: await code(secret, 1) },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toBe(ACCOUNT_MESSAGES.passwordWrong);
    const noCode = await call(srv.url, 'accountDelete', { token: U.token, body: { password: PASSWORD } });
    expect(noCode.status).toBe(400);
    expect(noCode.body.error.message).toBe(SECURITY_MESSAGES.otpRequired);
    const badCode = await call(srv.url, 'accountDelete', { token: U.token, body: { password: PASSWORD, code: 'aaaaa-aaaaa' } });
    expect(badCode.status).toBe(400);
    expect(badCode.body.error.message).toBe(SECURITY_MESSAGES.otpInvalid);

    const done = await call(srv.url, 'accountDelete', { token: U.token, body: { password: PASSWORD, code: await code(secret, 1) } });
    expect(done.status).toBe(200);
    expect(done.body.clients).toEqual([U.client]);
    expect((await call(srv.url, 'accountShow', { token: U.token })).status).toBe(401);
    expect((await login(U.email)).status).toBe(401);
    // The lone client is removed as the product removes things; its API key no longer works.
    const client = await srv.built.services.db
      .selectFrom('clients')
      .select('active')
      .where('stamp', '=', U.client)
      .executeTakeFirstOrThrow();
    expect(client.active).toBe(0);
    expect((await call(srv.url, 'permissions', { token: key.token })).status).toBe(401);
    expect(await mailAbout(U.email, 'Your account was deleted')).toContain('every session of it was signed out');
    // The address is free again.
    const again = await call(srv.url, 'signup', {
      body: { email: U.email, username: `${U.username}x`.slice(0, 30), password: PASSWORD, name: 'Again' },
    });
    expect(again.status).toBe(200);
  });
});

describe('audited and mailed', () => {
  it('two-factor on and off, and a sign-in from a new address, are audit lines and mails', async () => {
    const U = await signup(srv.url, 'aud');
    const { secret } = (await call(srv.url, 'otpSetup', { token: U.token })).body.otp;
    expect((await call(srv.url, 'otpEnable', { token: U.token, body: { code: await code(secret) } })).status).toBe(200);
    expect(await mailAbout(U.email, 'Two-factor sign-in is on')).toContain('asks for a code');
    expect((await call(srv.url, 'otpDisable', { token: U.token, body: { code: await code(secret, 1), password: PASSWORD } })).status).toBe(
      200,
    );
    expect(await mailAbout(U.email, 'Two-factor sign-in is off')).toContain('password alone');

    // The address of the sign-up: nothing new. Another address: a line and a mail; the same one again: nothing more.
    expect((await login(U.email)).status).toBe(200);
    expect((await login(U.email, PASSWORD, '203.0.113.7')).status).toBe(200);
    const mail = await mailAbout(U.email, 'A sign-in from a new address');
    expect(mail).toContain('203.0.113.7');
    expect((await login(U.email, PASSWORD, '203.0.113.7')).status).toBe(200);
    // Remembered after its sessions are gone (their rows go a day after they expire).
    await srv.built.services.db.deleteFrom('sessions').where('user_stamp', '=', U.user).where('address', '=', '203.0.113.7').execute();
    expect((await login(U.email, PASSWORD, '203.0.113.7')).status).toBe(200);
    const seen = await events(U.token);
    // Every sign-in is in the user's own log; the client's audit log (which every owner reads) has none of them.
    const audited = await actions(U.token, U.client);
    expect(audited).not.toContain('signin.new-address');
    expect(audited).not.toContain('signin');
    expect(seen.filter((a) => a === 'signin.new-address')).toHaveLength(1);
    expect(seen.filter((a) => a === 'signin')).toHaveLength(3);
    expect(seen).toEqual(expect.arrayContaining(['otp.on', 'otp.off']));
    expect((await mailsTo(srv.dataDir, U.email)).filter((m) => m.includes('Subject: A sign-in from a new address'))).toHaveLength(1);
  });
});

describe('red team: the password step alone never changes an account', () => {
  const CHANGES: Array<[CallName, unknown]> = [
    ['accountShow', undefined],
    ['passwordChange', { current: PASSWORD, password: NEW_PASSWORD }],
    ['emailChange', { email: 'thief@example.com', password: PASSWORD }],
    ['emailChangeCancel', undefined],
    ['accountExport', undefined],
    ['accountDelete', { password: PASSWORD }],
    ['sessionEndOthers', undefined],
    ['otpDisable', { code: '123456', password: PASSWORD }],
  ];

  it('refuses the second step challenge, an ended session and an API key on every account call', async () => {
    const U = await signup(srv.url, 'red');
    const key = (await call(srv.url, 'apikeyCreate', { token: U.token, body: { client: U.client, name: 'k' } })).body.apikey;
    const { secret } = (await call(srv.url, 'otpSetup', { token: U.token })).body.otp;
    expect((await call(srv.url, 'otpEnable', { token: U.token, body: { code: await code(secret) } })).status).toBe(200);
    const step = await login(U.email);
    expect(step.status).toBe(200);
    expect(step.body.token).toBeUndefined();
    const challenge = step.body.otp.challenge as string;
    const ended = (await call(srv.url, 'loginOtp', { body: { challenge, code: await code(secret, 1) } })).body.token as string;
    expect((await call(srv.url, 'logout', { token: ended })).status).toBe(200);
    const challenge2 = (await login(U.email)).body.otp.challenge as string;

    for (const [name, body] of CHANGES) {
      for (const token of [challenge2, ended, key.token]) {
        const r = await call(srv.url, name, { token, body });
        expect(
          r.status,
          `${name} with ${token === key.token ? 'an API key' : token === ended ? 'an ended session' : 'the challenge'}`,
        ).toBe(401);
      }
    }
    // Nothing changed: the password, the address and the account are as they were.
    expect((await call(srv.url, 'accountShow', { token: U.token })).body.account).toMatchObject({
      email: U.email,
      pendingEmail: null,
      otp: true,
    });
    expect(await mailsTo(srv.dataDir, 'thief@example.com')).toHaveLength(0);
    await expect(mailTo(srv.dataDir, U.email)).resolves.toBeTruthy();
  });
});
