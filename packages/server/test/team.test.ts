// Teams: members, invitations by mail, roles, leaving, the audit log, and removal on every API process at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, MESSAGES, TEAM_MESSAGES, type CallResponse } from '@portal/core';
import { CALLS } from '@portal/core/contract/table';
import { call, dbKinds, mailTo, mailsTo, signup, startPeer, startServer, waitFor, type TestServer } from './harness';
import { runAdmin } from '../src/admin';
import { pruneAudit, AUDIT_RETENTION_S } from '../src/audit';
import { now } from '../src/ids';

const kinds = await dbKinds();
type User = Awaited<ReturnType<typeof signup>>;

/** The token of the invitation link mailed to this address. */
async function invitedToken(dataDir: string, email: string, seen = 0): Promise<string> {
  const mail = await mailTo(dataDir, email, seen);
  const m = /\/invite\?token=([A-Za-z0-9_%-]+)/.exec(mail);
  if (!m) throw new Error(`no invitation link in: ${mail}`);
  return decodeURIComponent(m[1]);
}

/** Invites `who` into `owner`'s client and accepts it with `who`'s session. */
async function join(srv: TestServer, owner: User, who: User, role: 'owner' | 'member' = 'member') {
  const seen = (await mailsTo(srv.dataDir, who.email)).length;
  const r = await call(srv.url, 'inviteCreate', { token: owner.token, body: { client: owner.client, email: who.email, role } });
  expect(r.status).toBe(200);
  const token = await invitedToken(srv.dataDir, who.email, seen);
  const a = await call(srv.url, 'inviteAccept', { token: who.token, body: { token } });
  expect(a.status).toBe(200);
  return a.body as CallResponse<'inviteAccept'>;
}

describe.each(kinds)('teams on the %s database', (kind) => {
  let srv: TestServer;
  let owner: User;
  let bob: User;
  let carol: User;
  const members = async (u: User, client = owner.client) =>
    (await call(srv.url, 'memberList', { token: u.token, query: { client } })).body as CallResponse<'memberList'>;
  const roleOf = async (userId: string) => (await members(owner)).member.list.find((m) => m.user.stamp === userId)?.role;

  beforeAll(async () => {
    srv = await startServer(kind);
    owner = await signup(srv.url, 'owner');
    bob = await signup(srv.url, 'bob');
    carol = await signup(srv.url, 'carol');
  });
  afterAll(async () => {
    await srv?.close();
  });

  it('the user who signed the client up is its first owner', async () => {
    const list = await members(owner);
    expect(list.client.stamp).toBe(owner.client);
    expect(list.member.list).toEqual([
      { user: { stamp: owner.user, email: owner.email, username: owner.username }, role: 'owner', createdAt: expect.any(Number) },
    ]);
  });

  it('an invitation is mailed with a link to /invite, listed while pending, accepted once by its own address', async () => {
    const r = await call(srv.url, 'inviteCreate', { token: owner.token, body: { client: owner.client, email: bob.email, role: 'member' } });
    expect(r.status).toBe(200);
    const invite = r.body.invite;
    expect(invite).toMatchObject({ email: bob.email, role: 'member' });
    expect(invite.expiresAt - invite.createdAt).toBe(7 * 24 * 60 * 60);
    const pending = await call(srv.url, 'inviteList', { token: owner.token, query: { client: owner.client } });
    expect(pending.body.invite.list.map((i: { stamp: string }) => i.stamp)).toEqual([invite.stamp]);
    const mail = await mailTo(srv.dataDir, bob.email);
    expect(mail).toContain(`${srv.url}/invite?token=`);
    const token = await invitedToken(srv.dataDir, bob.email);

    // Someone else's account cannot take it.
    const wrong = await call(srv.url, 'inviteAccept', { token: carol.token, body: { token } });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.message).toBe(TEAM_MESSAGES.inviteOtherEmail(bob.email));

    const ok = await call(srv.url, 'inviteAccept', { token: bob.token, body: { token } });
    expect(ok.status).toBe(200);
    expect(ok.body.client.stamp).toBe(owner.client);
    expect(ok.body.member).toMatchObject({ user: { stamp: bob.user }, role: 'member' });
    expect(await roleOf(bob.user)).toBe('member');
    // Bob now sees the client's projects.
    expect((await call(srv.url, 'bucketList', { token: bob.token, query: { client: owner.client, active: 1 } })).status).toBe(200);

    const again = await call(srv.url, 'inviteAccept', { token: bob.token, body: { token } });
    expect(again.status).toBe(401);
    expect(again.body.error.message).toBe(TEAM_MESSAGES.inviteUsed);
    // About the link, not the session: clients keep the sign-in.
    expect(again.body.error.code).toBe(ERROR_CODES.inviteInvalid);
    expect((await call(srv.url, 'memberList', { token: bob.token, query: { client: owner.client } })).status).toBe(200);
    expect((await call(srv.url, 'inviteList', { token: owner.token, query: { client: owner.client } })).body.invite.list).toEqual([]);
  });

  it('bad input: an invalid email 400, a member 409, a non-owner 403, an unknown or expired token 401', async () => {
    const bad = await call(srv.url, 'inviteCreate', {
      token: owner.token,
      body: { client: owner.client, email: 'not-an-email', role: 'member' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe(MESSAGES.email);
    const role = await call(srv.url, 'inviteCreate', {
      token: owner.token,
      body: { client: owner.client, email: 'x@example.com', role: 'boss' },
    });
    expect(role.status).toBe(400);
    const member = await call(srv.url, 'inviteCreate', {
      token: owner.token,
      body: { client: owner.client, email: bob.email.toUpperCase(), role: 'member' },
    });
    expect(member.status).toBe(409);
    expect(member.body.error.message).toBe(TEAM_MESSAGES.alreadyMember(bob.email));
    const notOwner = await call(srv.url, 'inviteCreate', {
      token: bob.token,
      body: { client: owner.client, email: 'y@example.com', role: 'member' },
    });
    expect(notOwner.status).toBe(403);
    expect(notOwner.body.error.message).toBe(TEAM_MESSAGES.ownersOnly);
    const unknown = await call(srv.url, 'inviteAccept', { token: carol.token, body: { token: 'no-such-token' } });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.message).toBe(TEAM_MESSAGES.inviteUsed);

    await call(srv.url, 'inviteCreate', { token: owner.token, body: { client: owner.client, email: carol.email, role: 'member' } });
    const token = await invitedToken(srv.dataDir, carol.email);
    await srv.built.services.db
      .updateTable('invites')
      .set({ expires_at: now() - 1 })
      .where('email', '=', carol.email)
      .execute();
    const expired = await call(srv.url, 'inviteAccept', { token: carol.token, body: { token } });
    expect(expired.status).toBe(401);
    expect(expired.body.error.message).toBe(TEAM_MESSAGES.inviteUsed);
    // Expired invitations are not pending any more.
    expect((await call(srv.url, 'inviteList', { token: owner.token, query: { client: owner.client } })).body.invite.list).toEqual([]);
  });

  it('owners withdraw invitations; a withdrawn link no longer works; members cannot withdraw', async () => {
    const dave = await signup(srv.url, 'dave');
    const r = await call(srv.url, 'inviteCreate', { token: owner.token, body: { client: owner.client, email: dave.email, role: 'owner' } });
    const invite = r.body.invite.stamp;
    const token = await invitedToken(srv.dataDir, dave.email);
    expect((await call(srv.url, 'inviteRemove', { token: bob.token, body: { invite } })).status).toBe(403);
    expect((await call(srv.url, 'inviteRemove', { token: owner.token, body: { invite } })).body).toEqual({ ok: true });
    expect((await call(srv.url, 'inviteRemove', { token: owner.token, body: { invite } })).status).toBe(404);
    const late = await call(srv.url, 'inviteAccept', { token: dave.token, body: { token } });
    expect(late.status).toBe(401);
  });

  it('roles: only owners change them; the last owner cannot be demoted (409) nor leave (409)', async () => {
    const byMember = await call(srv.url, 'memberRole', { token: bob.token, body: { client: owner.client, user: bob.user, role: 'owner' } });
    expect(byMember.status).toBe(403);
    const demote = await call(srv.url, 'memberRole', {
      token: owner.token,
      body: { client: owner.client, user: owner.user, role: 'member' },
    });
    expect(demote.status).toBe(409);
    expect(demote.body.error.message).toBe(TEAM_MESSAGES.lastOwnerDemote);
    const leave = await call(srv.url, 'memberRemove', { token: owner.token, body: { client: owner.client, user: owner.user } });
    expect(leave.status).toBe(409);
    expect(leave.body.error.message).toBe(TEAM_MESSAGES.lastOwnerLeave);
    const nobody = await call(srv.url, 'memberRole', {
      token: owner.token,
      body: { client: owner.client, user: carol.user, role: 'owner' },
    });
    expect(nobody.status).toBe(404);

    const promote = await call(srv.url, 'memberRole', {
      token: owner.token,
      body: { client: owner.client, user: bob.user, role: 'owner' },
    });
    expect(promote.status).toBe(200);
    expect(promote.body.member).toMatchObject({ user: { stamp: bob.user }, role: 'owner' });
    // Two owners: one may step down, then the other is the last again.
    const stepDown = await call(srv.url, 'memberRole', {
      token: bob.token,
      body: { client: owner.client, user: bob.user, role: 'member' },
    });
    expect(stepDown.status).toBe(200);
    expect(await roleOf(bob.user)).toBe('member');
  });

  it('a member cannot remove others but may leave; an owner removes a member, who loses access at once', async () => {
    await join(srv, owner, carol);
    const byMember = await call(srv.url, 'memberRemove', { token: bob.token, body: { client: owner.client, user: carol.user } });
    expect(byMember.status).toBe(403);
    const left = await call(srv.url, 'memberRemove', { token: carol.token, body: { client: owner.client, user: carol.user } });
    expect(left.body).toEqual({ ok: true });
    expect((await call(srv.url, 'memberList', { token: carol.token, query: { client: owner.client } })).status).toBe(403);

    const removed = await call(srv.url, 'memberRemove', { token: owner.token, body: { client: owner.client, user: bob.user } });
    expect(removed.body).toEqual({ ok: true });
    expect((await call(srv.url, 'bucketList', { token: bob.token, query: { client: owner.client, active: 1 } })).status).toBe(403);
    expect((await members(owner)).member.list.map((m) => m.user.stamp)).toEqual([owner.user]);
    expect((await call(srv.url, 'memberRemove', { token: owner.token, body: { client: owner.client, user: bob.user } })).status).toBe(404);
  });

  it('the audit log: owners only, newest first, paged with a cursor, filtered by action', async () => {
    const t = owner.token;
    const key = (await call(srv.url, 'apikeyCreate', { token: t, body: { client: owner.client, name: 'Deploy' } })).body.apikey.clue;
    await call(srv.url, 'apikeyRename', { token: t, body: { apikey: key, name: 'Deploy 2' } });
    await call(srv.url, 'apikeyRemove', { token: t, body: { apikey: key, active: 0 } });
    const integration = (
      await call(srv.url, 'integrationCreate', { token: t, body: { client: owner.client, name: 'AI', service: 'OpenAI', token: 'sk-1' } })
    ).body.apikey.clue;
    await call(srv.url, 'integrationRename', { token: t, body: { apikey: integration, name: 'AI 2' } });
    await call(srv.url, 'integrationRemove', { token: t, body: { apikey: integration, active: 0 } });
    const ctx = { db: srv.built.services.db, config: srv.config, secrets: srv.built.services.secrets };
    await runAdmin(ctx, 'set-plan', [owner.client, 'Enterprise']);
    await runAdmin(ctx, 'set-choice', [owner.client, 'CloudPremise']);
    const login = await fetch(`${srv.url}${CALLS.login.path}`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${owner.email}:Sup3r-secret!`).toString('base64')}` },
    });
    expect(login.status).toBe(200);

    const first = await call(srv.url, 'audit', { token: t, query: { client: owner.client } });
    expect(first.status).toBe(200);
    const actions = (first.body as CallResponse<'audit'>).audit.list.map((e) => e.action);
    // The owner's sign-in is in their own account events, not here: owners read nothing of members' sign-ins.
    expect(actions).not.toContain('signin');
    expect(actions.slice(0, 8)).toEqual([
      'client.choice',
      'client.plan',
      'integration.remove',
      'integration.rename',
      'integration.create',
      'apikey.remove',
      'apikey.rename',
      'apikey.create',
    ]);
    for (const a of ['member.join', 'member.invite', 'member.invite.withdraw', 'member.role', 'member.leave', 'member.remove']) {
      expect(actions).toContain(a);
    }
    const plan = first.body.audit.list.find((e: { action: string }) => e.action === 'client.plan');
    expect(plan).toMatchObject({ actor: { stamp: 'operator' }, detail: 'Individual -> Enterprise' });
    const rename = first.body.audit.list.find((e: { action: string }) => e.action === 'apikey.rename');
    expect(rename).toMatchObject({ actor: { stamp: owner.user, email: owner.email }, target: key, detail: 'Deploy 2' });

    // Pages of 4 walk the whole log exactly once.
    const seen: string[] = [];
    let before: string | undefined;
    for (let i = 0; i < 50; i++) {
      const page = (await call(srv.url, 'audit', { token: t, query: { client: owner.client, limit: 4, before } }))
        .body as CallResponse<'audit'>;
      expect(page.audit.list.length).toBeLessThanOrEqual(4);
      seen.push(...page.audit.list.map((e) => e.action));
      if (!page.audit.next) break;
      before = page.audit.next;
    }
    expect(seen).toEqual(actions);

    const only = await call(srv.url, 'audit', { token: t, query: { client: owner.client, action: 'member.role' } });
    expect(only.body.audit.list.every((e: { action: string }) => e.action === 'member.role')).toBe(true);
    expect(only.body.audit.list.length).toBeGreaterThan(0);
    expect((await call(srv.url, 'audit', { token: t, query: { client: owner.client, before: 'abc' } })).status).toBe(400);
    expect((await call(srv.url, 'audit', { token: t, query: { client: owner.client, limit: 100000 } })).status).toBe(400);

    await join(srv, owner, bob);
    const denied = await call(srv.url, 'audit', { token: bob.token, query: { client: owner.client } });
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toBe(TEAM_MESSAGES.auditOwnersOnly);
  });

  it('housekeeping deletes audit lines older than 400 days and keeps the rest', async () => {
    const db = srv.built.services.db;
    const t = now();
    await db
      .insertInto('audit')
      .values([
        {
          client: owner.client,
          at: t - AUDIT_RETENTION_S - 10,
          actor_stamp: 'x',
          actor_email: 'x',
          action: 'project.create',
          target: 'old',
          detail: '',
        },
        {
          client: owner.client,
          at: t - AUDIT_RETENTION_S + 3600,
          actor_stamp: 'x',
          actor_email: 'x',
          action: 'project.create',
          target: 'kept',
          detail: '',
        },
      ])
      .execute();
    expect(await pruneAudit(db, t)).toBe(1);
    const targets = (await db.selectFrom('audit').select('target').where('actor_stamp', '=', 'x').execute()).map((r) => r.target);
    expect(targets).toEqual(['kept']);
  });

  it('the operator: a grant to a client makes a member; revoking the last owner makes the earliest remaining member owner', async () => {
    const ctx = { db: srv.built.services.db, config: srv.config, secrets: srv.built.services.secrets };
    const erin = await signup(srv.url, 'erin');
    expect(await runAdmin(ctx, 'grant', [erin.email, owner.client])).toContain('is a member of');
    expect(await roleOf(erin.user)).toBe('member');
    expect(await runAdmin(ctx, 'revoke', [owner.email, owner.client])).toContain('is now its owner');
    const list = (await members(bob)).member.list;
    expect(list.filter((m) => m.role === 'owner').map((m) => m.user.stamp)).toEqual([bob.user]);
  });
});

describe.runIf(kinds.includes('postgres'))('removal on two API processes (PostgreSQL)', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    a = await startServer('postgres');
    b = await startPeer(a);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('a member removed through one process is refused at once by the other', async () => {
    const owner = await signup(a.url, 'owner');
    const member = await signup(a.url, 'member');
    await join(a, owner, member);
    // The member works through the second process.
    await waitFor(
      async () => (await call(b.url, 'bucketList', { token: member.token, query: { client: owner.client, active: 1 } })).status === 200,
    );
    const removed = await call(a.url, 'memberRemove', { token: owner.token, body: { client: owner.client, user: member.user } });
    expect(removed.status).toBe(200);
    // No wait: the very next call on the other process is refused.
    expect((await call(b.url, 'bucketList', { token: member.token, query: { client: owner.client, active: 1 } })).status).toBe(403);
    expect((await call(b.url, 'memberList', { token: member.token, query: { client: owner.client } })).status).toBe(403);
  });
});

describe('invitations under a rate limit', () => {
  let srv: TestServer;
  afterAll(async () => {
    await srv?.close();
  });

  it('sending invitations counts against the per-address limit, so the server cannot be made to mail without bound', async () => {
    // Two invitations a minute from this address pass, the third is refused.
    srv = await startServer('embedded', { authRateLimit: 2 });
    const owner = await signup(srv.url, 'limited');
    const invite = (n: number) =>
      call(srv.url, 'inviteCreate', { token: owner.token, body: { client: owner.client, email: `guest${n}@example.com`, role: 'member' } });
    expect((await invite(1)).status).toBe(200);
    expect((await invite(2)).status).toBe(200);
    const third = await invite(3);
    expect(third.status).toBe(429);
    expect(third.body.error.message).toBe(MESSAGES.rateLimited);
  });
});
