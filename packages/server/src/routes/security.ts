// Account security calls: the second step of a sign-in and two-factor sign-in's setup, confirmation and turning off.
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accountEvent } from './account';
import { checkCode, mailAccount, provePassword, type MailServices } from './proof';
import { OTP_CHALLENGE_TRIES, OTP_CHALLENGE_TTL_S, SECURITY_MESSAGES, type CallResponse } from '@portal/core';
import { defineCall, type CallServices } from './define';
import { HttpError, badRequest, conflict, unauthorized } from '../errors';
import { now } from '../ids';
import type { OtpVerdict } from '../auth/otp';
import type { Services } from '../services';
import { loginResponse, seenBy } from './signin';

/** What the group uses: a call's own services, two-factor codes and the account's mail. */
export type SecurityServices = CallServices & MailServices & Pick<Services, 'otp'>;

/** The password step's answer for an account with two-factor sign-in: a challenge, good for one second step. */
export async function otpChallenge(s: Pick<Services, 'db' | 'tokens'>, user: string): Promise<CallResponse<'login'>> {
  const { token, jti, exp } = s.tokens.otpChallenge(user, OTP_CHALLENGE_TTL_S);
  await s.db.insertInto('otp_challenges').values({ jti, user_stamp: user, expires_at: exp, used_at: null }).execute();
  // Spent challenges of the user go now, so the table stays the size of the sign-ins under way.
  await s.db.deleteFrom('otp_challenges').where('user_stamp', '=', user).where('expires_at', '<', now()).execute();
  return { otp: { challenge: token, expiresAt: exp } };
}

const tooMany = () => new HttpError(429, 'rate_limited', SECURITY_MESSAGES.otpTooMany);

/** A verdict other than 'ok' as the error a signed-in user sees (a 400, never a 401 that would sign them out). */
function refuse(verdict: OtpVerdict): void {
  if (verdict === 'limited') throw tooMany();
  if (verdict === 'wrong') throw badRequest(SECURITY_MESSAGES.otpInvalid);
}

/** Turning two-factor sign-in on or off: a line in the audit log of the account's clients, and a mail to the account. */
async function otpChanged(s: MailServices, stamp: string, action: 'otp.on' | 'otp.off', log: FastifyBaseLogger): Promise<void> {
  const user = await s.db.selectFrom('users').select(['stamp', 'email']).where('stamp', '=', stamp).executeTakeFirstOrThrow();
  await accountEvent(s.db, user, action);
  mailAccount(
    s,
    log,
    user.email,
    action === 'otp.on' ? 'Two-factor sign-in is on' : 'Two-factor sign-in is off',
    action === 'otp.on'
      ? 'Two-factor sign-in was turned on for your account just now: signing in now asks for a code from your authenticator app.'
      : 'Two-factor sign-in was turned off for your account just now: signing in asks for the password alone.',
  );
}

export const securityRoutes: FastifyPluginAsyncZod<SecurityServices> = async (app, s) => {
  defineCall(app, s, 'loginOtp', { rateLimit: true }, async ({ body, req }) => {
    const v = s.tokens.verify(body.challenge, 'otp');
    if (!v.ok || !v.claims.jti) throw unauthorized(SECURITY_MESSAGES.otpChallengeExpired);
    const { sub, jti } = v.claims;
    // Each code a challenge is tried with counts on it first (one statement: racing codes never get more tries than
    // OTP_CHALLENGE_TRIES); a challenge out of tries is over, and the sign-in starts again with the password.
    const tried = await s.db
      .updateTable('otp_challenges')
      .set((eb) => ({ tries: eb('tries', '+', 1) }))
      .where('jti', '=', jti)
      .where('user_stamp', '=', sub)
      .where('used_at', 'is', null)
      .where('expires_at', '>=', now())
      .returning('tries')
      .executeTakeFirst();
    if (!tried) throw unauthorized(SECURITY_MESSAGES.otpChallengeExpired);
    if (Number(tried.tries) > OTP_CHALLENGE_TRIES) throw unauthorized(SECURITY_MESSAGES.otpChallengeSpent);
    const verdict = await checkCode(s, req.log, sub, body.code);
    if (verdict === 'limited') throw tooMany();
    if (verdict === 'wrong') throw unauthorized(SECURITY_MESSAGES.otpInvalid);
    // Spent once: two requests racing with the same challenge get one session between them.
    const spent = await s.db
      .updateTable('otp_challenges')
      .set({ used_at: now() })
      .where('jti', '=', jti)
      .where('used_at', 'is', null)
      .returning('jti')
      .executeTakeFirst();
    if (!spent) throw unauthorized(SECURITY_MESSAGES.otpChallengeExpired);
    const user = await s.db.selectFrom('users').select(['stamp', 'email', 'username']).where('stamp', '=', sub).executeTakeFirst();
    if (!user) throw unauthorized(SECURITY_MESSAGES.otpChallengeExpired);
    return loginResponse(s, user, true, seenBy(req), req.log);
  });

  defineCall(app, s, 'otpStatus', {}, async ({ caller }) => {
    if (caller.kind !== 'user') throw unauthorized();
    const enabled = await s.otp.enabled(caller.stamp);
    return { otp: { enabled, recoveryLeft: enabled ? await s.otp.recoveryLeft(caller.stamp) : 0 } };
  });

  defineCall(app, s, 'otpSetup', {}, async ({ caller }) => {
    if (caller.kind !== 'user') throw unauthorized();
    const setup = await s.otp.setup(caller.stamp, caller.email);
    if (!setup) throw conflict(SECURITY_MESSAGES.otpAlreadyOn);
    return { otp: setup };
  });

  defineCall(app, s, 'otpEnable', {}, async ({ caller, body, req }) => {
    if (caller.kind !== 'user') throw unauthorized();
    if (await s.otp.enabled(caller.stamp)) throw conflict(SECURITY_MESSAGES.otpAlreadyOn);
    const pending = await s.db.selectFrom('user_otp').select('user_stamp').where('user_stamp', '=', caller.stamp).executeTakeFirst();
    if (!pending) throw badRequest(SECURITY_MESSAGES.otpNotSetUp);
    refuse(await checkCode(s, req.log, caller.stamp, body.code, true));
    const recovery = await s.otp.enable(caller.stamp);
    await otpChanged(s, caller.stamp, 'otp.on', req.log);
    return { otp: { recovery } };
  });

  defineCall(app, s, 'otpDisable', { rateLimit: true }, async ({ caller, body, req }) => {
    if (caller.kind !== 'user') throw unauthorized();
    if (!(await s.otp.enabled(caller.stamp))) throw badRequest(SECURITY_MESSAGES.otpNotOn);
    // The password first (counted as a sign-in): a session alone, perhaps a stolen one, turns nothing off.
    await provePassword(s, caller.stamp, body.password, req);
    refuse(await checkCode(s, req.log, caller.stamp, body.code));
    await s.otp.disable(caller.stamp);
    await otpChanged(s, caller.stamp, 'otp.off', req.log);
    return { ok: true as const };
  });
};
