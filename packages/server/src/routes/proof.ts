// What proves a signed-in user is the account's owner before a change: the password, counted as a sign-in is (so a
// session that is not its owner's cannot guess it), and a two-factor code, counted per account; and the mails that
// tell the owner of a change to the account, or that a limit tripped.
import type { FastifyBaseLogger } from 'fastify';
import { ACCOUNT_MESSAGES } from '@portal/core';
import { badRequest } from '../errors';
import { verifyPassword } from '../auth/secrets';
import { clearSignins, countSignin } from '../auth/signin-limit';
import { knownAddress } from '../auth/sessions';
import type { OtpVerdict } from '../auth/otp';
import { mailDeps, queueMail } from '../mail/outbox';
import type { Services } from '../services';
import type { MAIL_SERVICES } from '../mail/outbox';

/** What mailing the account's owner uses. */
export type MailServices = Pick<Services, (typeof MAIL_SERVICES)[number]>;

/** The account's row as stored now (its email may be newer than the session token's). */
export const accountRow = (s: Pick<Services, 'db'>, stamp: string) =>
  s.db.selectFrom('users').selectAll().where('stamp', '=', stamp).where('deleted_at', 'is', null).executeTakeFirstOrThrow();

/**
 * The current password, checked as a sign-in is: counted under the account's sign-in limit (so a session that is not
 * its owner's cannot guess it), a wrong one refused with 400, never 401 (which the doors read as an ended session).
 */
export async function provePassword(s: MailServices, stamp: string, password: string, req: { ip: string; log: FastifyBaseLogger }) {
  const user = await accountRow(s, stamp);
  const address = req.ip || null;
  await countSignin(s.db, {
    email: user.email,
    address,
    known: !!address && (await knownAddress(s.db, stamp, address)),
    tripped: () => mailSigninLimit(s, req.log, user.email),
  });
  if (!(await verifyPassword(password, user.password_hash))) throw badRequest(ACCOUNT_MESSAGES.passwordWrong);
  await clearSignins(s.db, user.email, address);
  return user;
}

/** A sign-in limit tripped: the account's owner hears of it (once per window), and that their sessions are unaffected. */
export function mailSigninLimit(s: MailServices, log: FastifyBaseLogger, email: string): void {
  mailAccount(
    s,
    log,
    email,
    'Many wrong passwords for your account',
    'Someone sent many wrong passwords for your account in the last minutes. Further attempts from where they came from ' +
      'are slowed down; you can still sign in as usual. If you use this password anywhere else, change it there too.',
  );
}

/** A mail about the account (durable, as every mail): queued in the background, a failure to queue logged. */
export function mailAccount(s: MailServices, log: FastifyBaseLogger, to: string, subject: string, text: string): void {
  void queueMail(mailDeps(s, log), {
    to,
    subject,
    text: `${text}\n\nIf it was not you, sign in and change your password, or write to support.`,
  }).catch((err) => log.error({ err }, `The mail "${subject}" could not be queued`));
}

/** The account's authenticator codes tripped their limit: the owner hears of it (once per window). */
export function mailOtpLimit(s: MailServices, log: FastifyBaseLogger, email: string): void {
  mailAccount(
    s,
    log,
    email,
    'Many wrong two-factor codes for your account',
    'Someone who knows your password sent many wrong two-factor codes for your account in the last minutes. ' +
      'Codes are now accepted more slowly for a while; your recovery codes work as before. Change your password now.',
  );
}

/** Checks a code for a signed-in or signing-in user, mailing them if the wrong codes tripped the limit. */
export async function checkCode(
  s: MailServices & Pick<Services, 'otp'>,
  log: FastifyBaseLogger,
  stamp: string,
  code: string,
  pending = false,
): Promise<OtpVerdict> {
  return s.otp.check(stamp, code, {
    pending,
    tripped: () =>
      void s.db
        .selectFrom('users')
        .select('email')
        .where('stamp', '=', stamp)
        .executeTakeFirst()
        .then((u) => u && mailOtpLimit(s, log, u.email))
        .catch((err: unknown) => log.error({ err }, 'The mail about wrong two-factor codes could not be queued')),
  });
}
