// Durable mail: every mail is a row (its text encrypted, since a reset mail carries a live link) and a job in the
// database queue. The API process tries it at once; a failed attempt is retried by any worker with backoff, so a mail
// server that is down delays a mail instead of losing it. Failures are logged and counted (portal_mail_errors_total).
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import type { Secrets } from '../auth/secrets';
import { newId, now } from '../ids';
import type { JobQueue } from '../worker/queue';
import type { Mail, Mailer } from './index';
import { requestIdOfLog } from '../context';

/** Seconds before each retry: 15 s doubling, seven attempts in all, within a reset link's 30 minutes. */
export const MAIL_RETRY_S = [15, 30, 60, 120, 240, 480];
/** A mail not sent by then is dropped: its reset link has expired anyway. */
export const MAIL_GIVE_UP_S = 30 * 60;

export interface MailDeps {
  db: Kysely<DB>;
  secrets: Secrets;
  mailer: Mailer;
  jobs: JobQueue;
  log: { info(msg: string): void; error(obj: unknown, msg?: string): void };
  errors?: { inc(): void };
  /** The request that queues the mail (its retry job names it). */
  requestId?: string | null;
}

/**
 * Keeps the mail and queues its retry job in one transaction, then tries it at once in the background (the caller's
 * answer must not wait for, or tell by its delay anything about, the mail server).
 */
export async function queueMail(d: MailDeps, mail: Mail): Promise<void> {
  const id = newId('m_');
  const t = now();
  await d.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('mails')
      .values({
        id,
        to_addr: mail.to,
        subject: mail.subject,
        body_enc: d.secrets.encrypt(mail.text),
        attempts: 0,
        created_at: t,
        sent_at: null,
        last_error: null,
      })
      .execute();
    // The job waits for the first retry's time: the immediate attempt below comes first.
    await d.jobs.enqueue(trx, 'mail', id, { delayS: MAIL_RETRY_S[0], requestId: d.requestId });
  });
  void attemptMail(d, id).catch((err) => d.log.error({ err }, `Mail ${id}: the first attempt could not run`));
}

/**
 * One attempt at a queued mail: `sent` (or already sent), `retry` after some seconds, or `dropped` when its time is
 * up or its attempts are spent.
 */
export async function attemptMail(d: MailDeps, id: string): Promise<{ outcome: 'sent' | 'dropped' } | { outcome: 'retry'; waitS: number }> {
  const row = await d.db.selectFrom('mails').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row || row.sent_at !== null) return { outcome: 'sent' };
  if (now() - row.created_at > MAIL_GIVE_UP_S || row.attempts > MAIL_RETRY_S.length) {
    d.log.error(
      { mail: id, attempts: row.attempts, error: row.last_error },
      `Mail ${id} to ${row.to_addr} was not sent: gave up after ${row.attempts} attempts`,
    );
    await d.db.deleteFrom('mails').where('id', '=', id).execute();
    return { outcome: 'dropped' };
  }
  try {
    await d.mailer.send({ to: row.to_addr, subject: row.subject, text: d.secrets.decrypt(row.body_enc) });
  } catch (err) {
    d.errors?.inc();
    const attempts = row.attempts + 1;
    await d.db
      .updateTable('mails')
      .set({ attempts, last_error: err instanceof Error ? err.message : String(err) })
      .where('id', '=', id)
      .execute();
    const waitS = MAIL_RETRY_S[Math.min(attempts, MAIL_RETRY_S.length) - 1];
    d.log.error({ err, mail: id, attempts }, `Mail ${id} to ${row.to_addr}: attempt ${attempts} failed; trying again in ${waitS} s`);
    return { outcome: 'retry', waitS };
  }
  // Sent: the text (a reset link) is not kept any longer than needed.
  await d.db
    .updateTable('mails')
    .set({ sent_at: now(), body_enc: '', attempts: row.attempts + 1, last_error: null })
    .where('id', '=', id)
    .execute();
  return { outcome: 'sent' };
}

/** What sending mail needs, from the app's services, logging to the request's logger (whose id the mail's job keeps). */
/** What sending a mail uses of the app's services. */
export const MAIL_SERVICES = ['db', 'secrets', 'mailer', 'jobs', 'metrics'] as const;

export const mailDeps = (
  s: { db: Kysely<DB>; secrets: Secrets; mailer: Mailer; jobs: JobQueue; metrics: { mailErrors: { inc(): void } } },
  log: MailDeps['log'],
): MailDeps => ({
  db: s.db,
  secrets: s.secrets,
  mailer: s.mailer,
  jobs: s.jobs,
  log,
  errors: s.metrics.mailErrors,
  requestId: requestIdOfLog(log),
});
