// Team calls: members and their roles, invitations by mail (7 days, single use) and the client's audit log.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable, Transaction } from 'kysely';
import {
  AUDIT_PAGE,
  ERROR_CODES,
  INVITE_DAYS,
  TEAM_MESSAGES,
  removeBlocked,
  roleChangeBlocked,
  type AuditEntry,
  type Invite,
  type Member,
  type Role,
  type RuleResult,
} from '@portal/core';
import { defineCall, type CallServices } from './define';
import type { MailServices } from './proof';
import { requireClient, requireOwner } from '../access';
import { lockClient, lockClientAsOwner, lockClientRow, teamChange, withdrawInvitesOf } from '../team';
import { sameAddress, sameEmail } from '../emails';
import { actorOf, audit } from '../audit';
import { HttpError, conflict, forbidden, notFound, unauthorized } from '../errors';
import { sha256Hex } from '../auth/secrets';
import { mailDeps, queueMail } from '../mail/outbox';
import { clientView } from '../views';
import { newId, now } from '../ids';
import type { AuditTable, DB, InviteTable } from '../db/schema';
import type { Caller } from '../services';

/** What the group uses: a call's own services and the invitations' mail. */
export type MemberServices = CallServices & MailServices;

type Db = Kysely<DB> | Transaction<DB>;

const memberRows = (db: Db, client: string) =>
  db
    .selectFrom('permissions as p')
    .innerJoin('users as u', 'u.stamp', 'p.user_stamp')
    .select(['u.stamp', 'u.email', 'u.username', 'p.role', 'p.created_at'])
    .where('p.client_stamp', '=', client)
    .orderBy('p.created_at')
    .orderBy('u.email');

type MemberRow = { stamp: string; email: string; username: string; role: string; created_at: number };
const memberView = (r: MemberRow): Member => ({
  user: { stamp: r.stamp, email: r.email, username: r.username },
  role: r.role as Role,
  createdAt: r.created_at,
});
const inviteView = (r: Selectable<InviteTable> | InviteTable): Invite => ({
  stamp: r.stamp,
  email: r.email,
  role: r.role as Role,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
});
const auditView = (r: Selectable<AuditTable>): AuditEntry => ({
  at: r.at,
  actor: { stamp: r.actor_stamp, email: r.actor_email },
  action: r.action,
  target: r.target,
  detail: r.detail,
});

/** The members of a client, read under the client's lock (lockClient), so the rules see every change before this one. */
const membersOf = async (trx: Transaction<DB>, client: string) => (await memberRows(trx, client).execute()).map(memberView);

/** A refusal by one of core's team rules, with its status. */
function refusal(message: RuleResult): HttpError | null {
  if (!message) return null;
  if (message === TEAM_MESSAGES.ownersOnly) return forbidden(message);
  if (message === TEAM_MESSAGES.memberNotFound) return notFound('Member');
  return conflict(message);
}

const me = (caller: Caller) => (caller.kind === 'user' ? caller.stamp : '');

export const memberRoutes: FastifyPluginAsyncZod<MemberServices> = async (app, s) => {
  defineCall(app, s, 'memberList', {}, async ({ caller, query }) => {
    const client = await requireClient(s.db, caller, query.client);
    const rows = await memberRows(s.db, client.stamp).execute();
    return { client: clientView(client), member: { list: rows.map(memberView) } };
  });

  defineCall(app, s, 'inviteList', {}, async ({ caller, query }) => {
    const client = await requireClient(s.db, caller, query.client);
    const rows = await s.db
      .selectFrom('invites')
      .selectAll()
      .where('client', '=', client.stamp)
      .where('used_at', 'is', null)
      .where('withdrawn_at', 'is', null)
      .where('expires_at', '>=', now())
      .orderBy('created_at')
      .orderBy('email')
      .execute();
    return { client: clientView(client), invite: { list: rows.map(inviteView) } };
  });

  defineCall(app, s, 'inviteCreate', { rateLimit: true }, async ({ caller, body, base, req }) => {
    const email = body.email.trim();
    const token = randomBytes(32).toString('base64url');
    const t = now();
    const { client, row } = await teamChange(s.db, async (trx) => {
      const client = await lockClientAsOwner(trx, caller, body.client);
      const member = await trx
        .selectFrom('permissions as p')
        .innerJoin('users as u', 'u.stamp', 'p.user_stamp')
        .select('u.email')
        .where('p.client_stamp', '=', client.stamp)
        .where(sameEmail('u.email', email))
        .executeTakeFirst();
      if (member) throw conflict(TEAM_MESSAGES.alreadyMember(member.email));
      const row: InviteTable = {
        stamp: newId('v_'),
        client: client.stamp,
        email,
        role: body.role,
        token_hash: sha256Hex(token),
        invited_by: me(caller),
        created_at: t,
        expires_at: t + INVITE_DAYS * 24 * 60 * 60,
        used_at: null,
        used_by: null,
        withdrawn_at: null,
      };
      // Only the newest invitation to an address works (one pending per client and address, a unique index too).
      await trx
        .updateTable('invites')
        .set({ withdrawn_at: t })
        .where('client', '=', client.stamp)
        .where(sameEmail('email', email))
        .where('used_at', 'is', null)
        .where('withdrawn_at', 'is', null)
        .execute();
      await trx.insertInto('invites').values(row).execute();
      await audit(trx, { client: client.stamp, actor: actorOf(caller), action: 'member.invite', target: email, detail: body.role });
      return { client, row };
    });
    // PUBLIC_URL or an allowed host only (see baseUrl), as for reset links.
    const link = `${base}/invite?token=${encodeURIComponent(token)}`;
    const inviter = caller.kind === 'user' ? caller.email : 'An owner';
    await queueMail(mailDeps(s, req.log), {
      to: email,
      subject: `You are invited to ${client.name}`,
      text:
        `${inviter} invited you to join ${client.name} as ${body.role === 'owner' ? 'an owner' : 'a member'}.\n\n` +
        `Accept here (the link works once, for ${INVITE_DAYS} days; sign up with this address first if you have no account):\n${link}\n\n` +
        'If you did not expect this, ignore this mail.',
    });
    // Said in the answer, so the portal tells an owner of a server without SMTP where the invitation went.
    return { invite: inviteView(row), delivery: s.mailer.delivery ?? 'smtp' };
  });

  defineCall(app, s, 'inviteRemove', {}, async ({ caller, body }) => {
    const invite = await s.db.selectFrom('invites').selectAll().where('stamp', '=', body.invite).executeTakeFirst();
    if (!invite) throw notFound('Invitation');
    await teamChange(s.db, async (trx) => {
      const client = await lockClientAsOwner(trx, caller, invite.client);
      const gone = await trx
        .updateTable('invites')
        .set({ withdrawn_at: now() })
        .where('stamp', '=', invite.stamp)
        .where('used_at', 'is', null)
        .where('withdrawn_at', 'is', null)
        .returning('stamp')
        .executeTakeFirst();
      if (!gone) throw notFound('Invitation');
      await audit(trx, { client: client.stamp, actor: actorOf(caller), action: 'member.invite.withdraw', target: invite.email });
    });
    return { ok: true as const };
  });

  defineCall(app, s, 'inviteAccept', { rateLimit: true }, async ({ caller, body }) => {
    if (caller.kind !== 'user') throw unauthorized();
    const t = now();
    const invalid = () => new HttpError(401, ERROR_CODES.inviteInvalid, TEAM_MESSAGES.inviteUsed);
    const found = await s.db.selectFrom('invites').select('client').where('token_hash', '=', sha256Hex(body.token)).executeTakeFirst();
    if (!found) throw invalid();
    const joined = await teamChange(s.db, async (trx) => {
      // Joining is a member change like the others: under the client's lock, after any removal or demotion before it.
      const locked = await lockClientRow(trx, found.client);
      const invite = await trx.selectFrom('invites').selectAll().where('token_hash', '=', sha256Hex(body.token)).executeTakeFirst();
      if (!locked || !invite || invite.used_at !== null || invite.withdrawn_at !== null || invite.expires_at < t) throw invalid();
      if (!(await sameAddress(trx, invite.email, caller.email))) throw forbidden(TEAM_MESSAGES.inviteOtherEmail(invite.email));
      // An account stored before look-alikes were refused does not take the invitation of the account at the exact address.
      const exact = await trx
        .selectFrom('users')
        .select('stamp')
        .where((eb) => eb(eb.fn('lower', ['email']), '=', invite.email.toLowerCase()))
        .where('stamp', '<>', caller.stamp)
        .executeTakeFirst();
      if (exact) throw forbidden(TEAM_MESSAGES.inviteOtherEmail(invite.email));
      // The invitation is only as good as its sender's right to invite, checked now rather than when it was sent.
      const sender = await trx
        .selectFrom('permissions')
        .select('role')
        .where('client_stamp', '=', invite.client)
        .where('user_stamp', '=', invite.invited_by)
        .executeTakeFirst();
      if (sender?.role !== 'owner') throw invalid();
      await trx.updateTable('invites').set({ used_at: t, used_by: caller.stamp }).where('stamp', '=', invite.stamp).execute();
      // Someone already a member (added another way meanwhile) keeps the role they have.
      const added = await trx
        .insertInto('permissions')
        .values({ user_stamp: caller.stamp, client_stamp: invite.client, created_at: t, role: invite.role })
        .onConflict((oc) => oc.doNothing())
        .returning('user_stamp')
        .executeTakeFirst();
      if (added)
        await audit(trx, {
          client: invite.client,
          actor: actorOf(caller),
          action: 'member.join',
          target: caller.email,
          detail: invite.role,
        });
      return invite.client;
    });
    const client = await s.db.selectFrom('clients').selectAll().where('stamp', '=', joined).executeTakeFirstOrThrow();
    const row = await memberRows(s.db, joined).where('p.user_stamp', '=', caller.stamp).executeTakeFirstOrThrow();
    return { client: clientView(client), member: memberView(row) };
  });

  defineCall(app, s, 'memberRole', {}, async ({ caller, body }) => {
    const member = await teamChange(s.db, async (trx) => {
      const { client, role } = await lockClient(trx, caller, body.client);
      const members = await membersOf(trx, client.stamp);
      const refused = refusal(roleChangeBlocked(members, role, body.user, body.role));
      if (refused) throw refused;
      const target = members.find((m) => m.user.stamp === body.user)!;
      if (target.role === body.role) return target;
      await trx
        .updateTable('permissions')
        .set({ role: body.role })
        .where('client_stamp', '=', client.stamp)
        .where('user_stamp', '=', body.user)
        .execute();
      await audit(trx, {
        client: client.stamp,
        actor: actorOf(caller),
        action: 'member.role',
        target: target.user.email,
        detail: body.role,
      });
      if (body.role !== 'owner') await withdrawInvitesOf(trx, client.stamp, body.user, actorOf(caller), now());
      return { ...target, role: body.role };
    });
    return { member };
  });

  // Removing someone else takes an owner; removing yourself is leaving, which anyone but the last owner may do.
  defineCall(app, s, 'memberRemove', {}, async ({ caller, body }) => {
    await teamChange(s.db, async (trx) => {
      const { client, role } = await lockClient(trx, caller, body.client);
      const members = await membersOf(trx, client.stamp);
      const refused = refusal(removeBlocked(members, me(caller), role, body.user));
      if (refused) throw refused;
      const target = members.find((m) => m.user.stamp === body.user)!;
      await trx.deleteFrom('permissions').where('client_stamp', '=', client.stamp).where('user_stamp', '=', body.user).execute();
      const leaving = body.user === me(caller);
      await audit(trx, {
        client: client.stamp,
        actor: actorOf(caller),
        action: leaving ? 'member.leave' : 'member.remove',
        target: target.user.email,
        detail: target.role,
      });
      await withdrawInvitesOf(trx, client.stamp, body.user, actorOf(caller), now());
    });
    return { ok: true as const };
  });

  defineCall(app, s, 'audit', {}, async ({ caller, query }) => {
    const client = await requireOwner(s.db, caller, query.client, TEAM_MESSAGES.auditOwnersOnly);
    const limit = query.limit ?? AUDIT_PAGE;
    let q = s.db.selectFrom('audit').selectAll().where('client', '=', client.stamp);
    const cursor = query.cursor ?? query.before;
    if (cursor) q = q.where('seq', '<', Number(cursor));
    if (query.action) q = q.where('action', '=', query.action);
    const actor = query.actor?.trim();
    if (actor) q = q.where((w) => w.or([w('actor_stamp', '=', actor), w(sql<string>`lower(actor_email)`, '=', actor.toLowerCase())]));
    if (query.from !== undefined) q = q.where('at', '>=', query.from);
    if (query.to !== undefined) q = q.where('at', '<', query.to);
    const rows = await q
      .orderBy('seq', 'desc')
      .limit(limit + 1)
      .execute();
    const page = rows.slice(0, limit);
    return { audit: { list: page.map(auditView), next: rows.length > limit ? String(page[page.length - 1].seq) : null } };
  });
};
