// Account changes (issue 30, steps 3-5): the account as its owner sees it, changing the password and the email
// address (confirmed by a link to the new one), and deleting the account (its export is routes/accountExport.ts).
// Each change asks the current password (a session alone is not enough), is in the audit log of every client the
// account belongs to, and is mailed.
import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ACCOUNT_MESSAGES,
  EMAIL_CONFIRM_PATH,
  EMAIL_CONFIRM_TTL_S,
  SECURITY_MESSAGES,
  type AccountEventAction,
  ACCOUNT_EVENTS_PAGE_MAX,
  type CallResponse,
} from '@portal/core';
import { defineCall, type CallServices } from './define';
import { accountRow, checkCode, mailAccount, provePassword, type MailServices } from './proof';
import { HttpError, badRequest, conflict, unauthorized } from '../errors';
import { hashPassword } from '../auth/secrets';
import { Sessions } from '../auth/sessions';
import { audit } from '../audit';
import { sameAddress, userByEmail } from '../emails';
import { now } from '../ids';
import { lockClientRow } from '../team';
import type { Transaction } from 'kysely';
import type { DB } from '../db/schema';
import type { Caller, Services } from '../services';

/** What the group uses: a call's own services, two-factor codes and the account's mail. */
export type AccountServices = CallServices & MailServices & Pick<Services, 'otp'>;

type User = Extract<Caller, { kind: 'user' }>;

/** A signed-in user with a current session: API keys and tokens of no session never change an account. */
export function accountCaller(caller: Caller): User {
  if (caller.kind !== 'user' || !caller.session) throw unauthorized();
  return caller;
}

/**
 * An account-security event, in the user's own log (their account page and export): never in the audit log of the
 * clients they belong to, whose owners see only that a member joined, left or changed role.
 */
export async function accountEvent(
  db: Services['db'],
  user: { stamp: string },
  action: AccountEventAction,
  target = '',
  detail = '',
): Promise<void> {
  await db.insertInto('user_events').values({ user_stamp: user.stamp, at: now(), action, target, detail }).execute();
}

/** The email change waiting for its link, if any. */
const pendingEmail = (s: Pick<Services, 'db'>, user: string) =>
  s.db
    .selectFrom('email_changes')
    .select(['new_email', 'expires_at'])
    .where('user_stamp', '=', user)
    .where('used_at', 'is', null)
    .where('withdrawn_at', 'is', null)
    .where('expires_at', '>=', now())
    .orderBy('created_at', 'desc')
    .executeTakeFirst();

const withdrawEmailChanges = (db: Services['db'], user: string, t = now()) =>
  db
    .updateTable('email_changes')
    .set({ withdrawn_at: t })
    .where('user_stamp', '=', user)
    .where('used_at', 'is', null)
    .where('withdrawn_at', 'is', null)
    .execute();

async function accountView(s: Pick<Services, 'db' | 'otp'>, stamp: string): Promise<CallResponse<'accountShow'>> {
  const user = await accountRow(s, stamp);
  const pending = await pendingEmail(s, stamp);
  return {
    account: {
      stamp: user.stamp,
      email: user.email,
      username: user.username,
      createdAt: Number(user.created_at),
      otp: await s.otp.enabled(stamp),
      pendingEmail: pending ? { email: pending.new_email, expiresAt: Number(pending.expires_at) } : null,
    },
  };
}

/**
 * The clients the user belongs to, and those only they belong to; refuses (409, saying what to do) while the user is
 * the only owner of a client with other members. With `lock`, inside a transaction, each client is locked first, as
 * every team change does, so a role change racing with a deletion sees its result.
 */
async function memberships(db: Services['db'], user: string, lock: boolean): Promise<{ stamps: string[]; alone: string[] }> {
  const mine = await db.selectFrom('permissions').select(['client_stamp', 'role']).where('user_stamp', '=', user).execute();
  if (lock) for (const m of mine) await lockClientRow(db as Transaction<DB>, m.client_stamp);
  const stamps = mine.map((m) => m.client_stamp);
  const others = stamps.length
    ? await db
        .selectFrom('permissions')
        .select(['client_stamp', 'role'])
        .where('client_stamp', 'in', stamps)
        .where('user_stamp', '!=', user)
        .execute()
    : [];
  const alone = stamps.filter((c) => !others.some((o) => o.client_stamp === c));
  const blocked = mine
    .filter((m) => m.role === 'owner' && !alone.includes(m.client_stamp))
    .filter((m) => !others.some((o) => o.client_stamp === m.client_stamp && o.role === 'owner'))
    .map((m) => m.client_stamp);
  if (blocked.length) {
    const names = await db.selectFrom('clients').select('name').where('stamp', 'in', blocked).orderBy('name').execute();
    throw conflict(ACCOUNT_MESSAGES.lastOwner(names.map((n) => n.name)));
  }
  return { stamps, alone };
}

const emailTaken = () => conflict(ACCOUNT_MESSAGES.emailTaken);

export const accountRoutes: FastifyPluginAsyncZod<AccountServices> = async (app, s) => {
  defineCall(app, s, 'accountShow', {}, async ({ caller }) => accountView(s, accountCaller(caller).stamp));

  defineCall(app, s, 'accountEvents', {}, async ({ caller, query }) => {
    const me = accountCaller(caller);
    const limit = query.limit ?? ACCOUNT_EVENTS_PAGE_MAX;
    let q = s.db.selectFrom('user_events').select(['seq', 'at', 'action', 'target', 'detail']).where('user_stamp', '=', me.stamp);
    if (query.cursor) q = q.where('seq', '<', Number(query.cursor));
    const rows = await q
      .orderBy('seq', 'desc')
      .limit(limit + 1)
      .execute();
    const page = rows.slice(0, limit);
    return {
      event: {
        list: page.map((r) => ({ at: Number(r.at), action: r.action, target: r.target, detail: r.detail })),
        next: rows.length > limit ? String(page[page.length - 1].seq) : null,
      },
    };
  });

  defineCall(app, s, 'passwordChange', { rateLimit: true }, async ({ caller, body, req }) => {
    const me = accountCaller(caller);
    const user = await provePassword(s, me.stamp, body.current, req);
    if (body.current === body.password) throw badRequest(ACCOUNT_MESSAGES.passwordSame);
    const hash = await hashPassword(body.password);
    const t = now();
    const ended = await s.db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ password_hash: hash }).where('stamp', '=', me.stamp).execute();
      // Everything the old password may have handed out ends: the other sessions and any reset link. This one stays.
      await trx.updateTable('reset_tokens').set({ used_at: t }).where('user_stamp', '=', me.stamp).where('used_at', 'is', null).execute();
      const r = await trx
        .updateTable('sessions')
        .set({ ended_at: t })
        .where('user_stamp', '=', me.stamp)
        .where('ended_at', 'is', null)
        .where('id', '!=', me.session!)
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    });
    await accountEvent(s.db, user, 'password.change', user.email, ended ? `${ended} other session${ended === 1 ? '' : 's'} ended` : '');
    mailAccount(
      s,
      req.log,
      user.email,
      'Your password was changed',
      'The password of your account was changed just now. Every other session of the account was signed out.',
    );
    return { ended };
  });

  defineCall(app, s, 'emailChange', { rateLimit: true }, async ({ caller, body, req, base }) => {
    const me = accountCaller(caller);
    const user = await provePassword(s, me.stamp, body.password, req);
    const email = body.email;
    if (await sameAddress(s.db, user.email, email)) throw badRequest(ACCOUNT_MESSAGES.emailSame);
    if (await userByEmail(s.db, email)) throw emailTaken();
    const t = now();
    const { token, jti, exp } = s.tokens.emailChange(me.stamp, EMAIL_CONFIRM_TTL_S);
    await s.db.transaction().execute(async (trx) => {
      // One change waits at a time: a newer request withdraws the link of the one before.
      await withdrawEmailChanges(trx, me.stamp, t);
      await trx
        .insertInto('email_changes')
        .values({ jti, user_stamp: me.stamp, new_email: email, created_at: t, expires_at: exp, used_at: null, withdrawn_at: null })
        .execute();
    });
    // PUBLIC_URL or an allowed host only (see baseUrl), as the reset link.
    const link = `${base}${EMAIL_CONFIRM_PATH}?token=${encodeURIComponent(token)}`;
    mailAccount(
      s,
      req.log,
      email,
      'Confirm your new email address',
      `Someone asked to use this address for the account ${user.username}.\n\nConfirm it here (the link works once, for 24 hours):\n${link}\n\nUntil then the account keeps its current address.`,
    );
    mailAccount(
      s,
      req.log,
      user.email,
      'A change of your email address was asked',
      `Someone signed in to your account asked to change its email address to ${email}. It changes only when the link mailed to that address is opened.\nTo keep your address, cancel the change on your account page.`,
    );
    await accountEvent(s.db, user, 'email.change.start', user.email, email);
    return accountView(s, me.stamp);
  });

  defineCall(app, s, 'emailChangeCancel', {}, async ({ caller }) => {
    const me = accountCaller(caller);
    await withdrawEmailChanges(s.db, me.stamp);
    return accountView(s, me.stamp);
  });

  defineCall(app, s, 'emailConfirm', { rateLimit: true }, async ({ body, req }) => {
    const invalid = () => badRequest(ACCOUNT_MESSAGES.emailLinkInvalid);
    const v = s.tokens.verify(body.token, 'email');
    if (!v.ok || !v.claims.jti) throw invalid();
    const { sub, jti } = v.claims;
    const t = now();
    const done = await s.db
      .transaction()
      .execute(async (trx) => {
        const change = await trx
          .updateTable('email_changes')
          .set({ used_at: t })
          .where('jti', '=', jti)
          .where('user_stamp', '=', sub)
          .where('used_at', 'is', null)
          .where('withdrawn_at', 'is', null)
          .where('expires_at', '>=', t)
          .returning('new_email')
          .executeTakeFirst();
        if (!change) throw invalid();
        const user = await trx.selectFrom('users').selectAll().where('stamp', '=', sub).where('deleted_at', 'is', null).executeTakeFirst();
        if (!user) throw invalid();
        // Taken meanwhile (a sign-up with that address): the unique index would refuse it; say so in words.
        const other = await userByEmail(trx, change.new_email);
        if (other && other.stamp !== sub) throw emailTaken();
        await trx.updateTable('users').set({ email: change.new_email }).where('stamp', '=', sub).execute();
        await withdrawEmailChanges(trx, sub, t);
        // A reset link mailed to the old address no longer opens the account.
        await trx.updateTable('reset_tokens').set({ used_at: t }).where('user_stamp', '=', sub).where('used_at', 'is', null).execute();
        return { user, email: change.new_email };
      })
      .catch((err: unknown) => {
        if (err instanceof HttpError) throw err;
        // Two confirmations racing for one address: the unique index decides, the loser hears why.
        if (/unique|duplicate/i.test(String((err as Error)?.message))) throw emailTaken();
        throw err;
      });
    const { user, email } = done;
    await accountEvent(s.db, user, 'email.change', user.email, email);
    const text = `The email address of the account ${user.username} changed from ${user.email} to ${email}.`;
    mailAccount(s, req.log, user.email, 'Your email address was changed', text);
    mailAccount(s, req.log, email, 'Your email address was changed', text);
    return { email };
  });

  defineCall(app, s, 'accountDelete', { rateLimit: true }, async ({ caller, body, req }) => {
    const me = accountCaller(caller);
    const user = await provePassword(s, me.stamp, body.password, req);
    // Refused before a code is asked or spent (a recovery code works once); checked again under the clients' locks.
    await memberships(s.db, me.stamp, false);
    if (await s.otp.enabled(me.stamp)) {
      if (!body.code) throw badRequest(ACCOUNT_MESSAGES.deleteCodeRequired);
      const verdict = await checkCode(s, req.log, me.stamp, body.code);
      if (verdict === 'limited') throw new HttpError(429, 'rate_limited', SECURITY_MESSAGES.otpTooMany);
      if (verdict === 'wrong') throw badRequest(SECURITY_MESSAGES.otpInvalid);
    }
    const actor = { stamp: user.stamp, email: user.email };
    const t = now();
    const removed = await s.db.transaction().execute(async (trx) => {
      const { stamps, alone } = await memberships(trx, me.stamp, true);
      await audit(trx, ...stamps.map((client) => ({ client, actor, action: 'account.delete' as const, target: user.email })));
      // The clients only this user belongs to go with the account, removed as the product removes things (active 0):
      // their API keys and integration keys stop working, their pending invitations are withdrawn.
      if (alone.length) {
        await trx.updateTable('clients').set({ active: 0 }).where('stamp', 'in', alone).execute();
        await trx.updateTable('apikeys').set({ active: 0 }).where('client', 'in', alone).execute();
        await trx.updateTable('integrations').set({ active: 0 }).where('client', 'in', alone).execute();
        await trx.updateTable('buckets').set({ active: 0 }).where('client', 'in', alone).execute();
        await trx
          .updateTable('invites')
          .set({ withdrawn_at: t })
          .where('client', 'in', alone)
          .where('used_at', 'is', null)
          .where('withdrawn_at', 'is', null)
          .execute();
      }
      // Invitations this user sent to the clients that stay are only as good as their sender.
      await trx
        .updateTable('invites')
        .set({ withdrawn_at: t })
        .where('invited_by', '=', me.stamp)
        .where('used_at', 'is', null)
        .where('withdrawn_at', 'is', null)
        .execute();
      await trx.deleteFrom('permissions').where('user_stamp', '=', me.stamp).execute();
      await Sessions.endAll(trx, me.stamp);
      await trx.updateTable('reset_tokens').set({ used_at: t }).where('user_stamp', '=', me.stamp).where('used_at', 'is', null).execute();
      await withdrawEmailChanges(trx, me.stamp, t);
      await trx.deleteFrom('recovery_codes').where('user_stamp', '=', me.stamp).execute();
      await trx.deleteFrom('user_otp').where('user_stamp', '=', me.stamp).execute();
      await trx.deleteFrom('known_addresses').where('user_stamp', '=', me.stamp).execute();
      // The row stays (the audit log and removed clients name it) without what identified the person or let them in.
      await trx
        .updateTable('users')
        .set({
          email: `deleted-${me.stamp}@deleted.invalid`,
          username: `deleted-${me.stamp}`,
          password_hash: await hashPassword(randomBytes(24).toString('base64url') + 'Aa1!'),
          deleted_at: t,
        })
        .where('stamp', '=', me.stamp)
        .execute();
      return alone;
    });
    mailAccount(
      s,
      req.log,
      user.email,
      'Your account was deleted',
      `The account ${user.username} was deleted just now, and every session of it was signed out.` +
        (removed.length ? ` ${removed.length} client${removed.length === 1 ? '' : 's'} only you belonged to went with it.` : ''),
    );
    return { ok: true as const, clients: removed };
  });
};
