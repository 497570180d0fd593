// User calls: login (Basic), sign-up, password reset start and finish, refresh, logout, permissions.
import { mailDeps, queueMail } from '../mail/outbox';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ACCOUNT_MESSAGES, MESSAGES, PLANS, CHOICES, type CallResponse } from '@portal/core';
import { defineCall, type CallServices } from './define';
import { conflict, notFound, tokenExpired, unauthorized } from '../errors';
import { DUMMY_HASH, hashPassword, verifyPassword } from '../auth/secrets';
import { clearSignins, countSignin } from '../auth/signin-limit';
import { userByEmail } from '../emails';
import { Sessions, knownAddress } from '../auth/sessions';
import { mailSigninLimit, type MailServices } from './proof';
import { audit } from '../audit';
import { clientView } from '../views';
import { newId, now } from '../ids';
import type { Services } from '../services';
import { otpChallenge } from './security';
import { loginResponse, seenBy } from './signin';

/** What the group uses: a call's own services, two-factor codes and the account's mail. */
export type UserServices = CallServices & MailServices & Pick<Services, 'otp'>;

/** The same sentence as an email change's refusal of an address in use (core's ACCOUNT_MESSAGES). */
export const EMAIL_TAKEN = ACCOUNT_MESSAGES.emailTaken;
export const USERNAME_TAKEN = 'This username is already taken.';

function parseBasic(header: string | undefined): { email: string; password: string } | null {
  const m = /^Basic\s+(\S+)\s*$/i.exec(header ?? '');
  if (!m) return null;
  const text = Buffer.from(m[1], 'base64').toString('utf8');
  const i = text.indexOf(':');
  if (i < 0) return null;
  return { email: text.slice(0, i).trim(), password: text.slice(i + 1) };
}

export const userRoutes: FastifyPluginAsyncZod<UserServices> = async (app, s) => {
  defineCall(app, s, 'login', { rateLimit: true }, async ({ req }) => {
    const creds = parseBasic(req.headers.authorization);
    if (!creds) throw unauthorized();
    // Per account and address as well as per address (the route's limit): the same count and answer for an unknown email.
    const user = await userByEmail(s.db, creds.email);
    const seen = seenBy(req);
    await countSignin(s.db, {
      email: creds.email,
      address: seen.address ?? null,
      known: !!user && !!seen.address && (await knownAddress(s.db, user.stamp, seen.address)),
      tripped: () => user && mailSigninLimit(s, req.log, user.email),
    });
    const ok = await verifyPassword(creds.password, user?.password_hash ?? DUMMY_HASH);
    if (!user || !ok) throw unauthorized();
    await clearSignins(s.db, creds.email, seen.address ?? null);
    // Two-factor sign-in on: the password alone yields only a short-lived challenge for the second step (loginOtp).
    if (await s.otp.enabled(user.stamp)) return otpChallenge(s, user.stamp);
    return loginResponse(s, user, true, seen, req.log);
  });

  defineCall(app, s, 'signup', { rateLimit: true }, async ({ body, req }) => {
    const email = body.email.trim();
    const username = body.username;
    const taken = async () => {
      // In the normal form: a look-alike of an existing address (a Kelvin sign for a K) is the same address.
      if (await userByEmail(s.db, email)) return EMAIL_TAKEN;
      const byName = await s.db
        .selectFrom('users')
        .select('stamp')
        .where((eb) => eb(eb.fn('lower', ['username']), '=', username.toLowerCase()))
        .executeTakeFirst();
      return byName ? USERNAME_TAKEN : null;
    };
    const first = await taken();
    if (first) throw conflict(first);
    const user = { stamp: newId('u_'), email, username };
    const passwordHash = await hashPassword(body.password);
    const t = now();
    try {
      await s.db.transaction().execute(async (trx) => {
        const client = newId('c_');
        await trx
          .insertInto('users')
          .values({ ...user, password_hash: passwordHash, created_at: t })
          .execute();
        await trx
          .insertInto('clients')
          .values({
            stamp: client,
            name: body.name.trim(),
            plan: PLANS[0],
            choice: CHOICES[0],
            active: 1,
            credit_total: s.config.freeCredit,
            credit_used: 0,
            created_at: t,
          })
          .execute();
        // The user who signs a client up is its first owner.
        await trx
          .insertInto('permissions')
          .values({ user_stamp: user.stamp, client_stamp: client, created_at: t, role: 'owner' })
          .execute();
        await audit(trx, { client, actor: { stamp: user.stamp, email }, action: 'member.join', target: email, detail: 'owner' });
      });
    } catch (err) {
      // Two sign-ups racing for the same email or username: the unique index decides, the loser gets the same 409.
      const again = await taken();
      if (again) throw conflict(again);
      throw err;
    }
    return loginResponse(s, user, false, seenBy(req));
  });

  defineCall(app, s, 'resetStart', { rateLimit: true }, async ({ body, req, base }) => {
    const user = await userByEmail(s.db, body.email);
    // The answer is the same whether or not the address is registered.
    if (user) {
      const { token, jti, exp } = s.tokens.reset(user.stamp);
      await s.db.insertInto('reset_tokens').values({ jti, user_stamp: user.stamp, expires_at: exp, used_at: null }).execute();
      // PUBLIC_URL or an allowed host only (see baseUrl): a forged Host would mail the victim a link to someone else's site.
      const link = `${base}/reset-password?token=${encodeURIComponent(token)}`;
      // Sent in the background: an answer that waited for the mail server would tell, by its delay,
      // that the address is registered.
      // Kept and queued, so a mail server that is down delays the mail rather than losing it.
      void queueMail(mailDeps(s, req.log), {
        to: user.email,
        subject: 'Reset your password',
        text: `Someone asked to reset the password of this account.\n\nSet a new password here (the link works once, for 30 minutes):\n${link}\n\nIf it was not you, ignore this mail.`,
      }).catch((err) => req.log.error({ err }, 'The password-reset mail could not be queued'));
    }
    return { ok: true as const };
  });

  defineCall(app, s, 'resetFinish', { rateLimit: true }, async ({ body, reset }) => {
    if (!reset) throw unauthorized();
    const passwordHash = await hashPassword(body.password);
    const t = now();
    const done = await s.db.transaction().execute(async (trx) => {
      const used = await trx
        .updateTable('reset_tokens')
        .set({ used_at: t })
        .where('jti', '=', reset.jti)
        .where('user_stamp', '=', reset.user)
        .where('used_at', 'is', null)
        .where('expires_at', '>=', t)
        .returning('jti')
        .executeTakeFirst();
      if (!used) return false;
      await trx.updateTable('users').set({ password_hash: passwordHash }).where('stamp', '=', reset.user).execute();
      // A new password ends everything the old one may have handed out: every session, and every other reset link.
      await trx.updateTable('reset_tokens').set({ used_at: t }).where('user_stamp', '=', reset.user).where('used_at', 'is', null).execute();
      await Sessions.endAll(trx, reset.user);
      return true;
    });
    if (!done) throw unauthorized(MESSAGES.invalidCredentials);
    return { ok: true as const };
  });

  // Only a current session is refreshed (authentication checked it); the new token names the same session.
  defineCall(app, s, 'refresh', {}, async ({ caller }) => {
    if (caller.kind !== 'user' || !caller.session) throw unauthorized();
    // The account's email and username as stored now: an email change reaches the session at its next refresh.
    const user = await s.db.selectFrom('users').select(['email', 'username']).where('stamp', '=', caller.stamp).executeTakeFirst();
    const token = user ? await s.sessions.refresh(caller.session, { sub: caller.stamp, ...user }) : null;
    if (!token) throw tokenExpired();
    return { token };
  });

  // Ends the session the call's token names, on every API process at once; other sessions of the user go on.
  defineCall(app, s, 'logout', {}, async ({ caller }) => {
    if (caller.kind !== 'user' || !caller.session) throw unauthorized();
    await s.sessions.end(caller.session);
    return { ok: true as const };
  });

  // Sessions you can see: the user's current sessions, this one marked; end one or every other.
  defineCall(app, s, 'sessionList', {}, async ({ caller }) => {
    if (caller.kind !== 'user' || !caller.session) throw unauthorized();
    return { session: { list: await s.sessions.list(caller.stamp, caller.session) } };
  });
  defineCall(app, s, 'sessionEnd', {}, async ({ caller, body }) => {
    if (caller.kind !== 'user' || !caller.session) throw unauthorized();
    const ended = await s.sessions.endOf(caller.stamp, { id: body.id });
    if (!ended) throw notFound('Session');
    return { ended };
  });
  defineCall(app, s, 'sessionEndOthers', {}, async ({ caller }) => {
    if (caller.kind !== 'user' || !caller.session) throw unauthorized();
    return { ended: await s.sessions.endOf(caller.stamp, { keep: caller.session }) };
  });

  // A client API key sees its own client, so the Python client can find the account its key works for.
  defineCall(app, s, 'permissions', { keys: true }, async ({ caller }) => {
    if (caller.kind === 'key') {
      const key = await s.db.selectFrom('apikeys').select('created_at').where('clue', '=', caller.clue).executeTakeFirstOrThrow();
      const client = await s.db.selectFrom('clients').selectAll().where('stamp', '=', caller.client).executeTakeFirstOrThrow();
      return {
        permission: { list: [{ client: clientView(client), createdAt: key.created_at }] },
      } as unknown as CallResponse<'permissions'>;
    }
    const rows = await s.db
      .selectFrom('permissions')
      .innerJoin('clients', 'clients.stamp', 'permissions.client_stamp')
      .selectAll('clients')
      .select('permissions.created_at as granted_at')
      .where('permissions.user_stamp', '=', caller.stamp)
      .orderBy('permissions.created_at')
      .orderBy('clients.seq')
      .execute();
    return {
      permission: { list: rows.map((r) => ({ client: clientView(r), createdAt: r.granted_at })) },
    } as unknown as CallResponse<'permissions'>;
  });
};
