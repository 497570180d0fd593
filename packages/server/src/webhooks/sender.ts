// The webhook sender: runs beside the worker's job slots (never in one), takes due deliveries from the database queue
// with a lease (FOR UPDATE SKIP LOCKED, so any number of workers share it), sends up to `concurrency` at once, logs
// each attempt and schedules the next with backoff. An endpoint whose every attempt failed for days is paused and its
// owners are mailed.
import { sql, type Kysely, type Selectable } from 'kysely';
import { WEBHOOK_HEADERS, WEBHOOK_PAUSE_AFTER_DAYS } from '@portal/core';
import type { DB, WebhookDeliveryTable } from '../db/schema';
import type { Secrets } from '../auth/secrets';
import { now } from '../ids';
import { audit } from '../audit';
import { queueMail, type MailDeps } from '../mail/outbox';
import { postWebhook, type AttemptResult } from './post';
import { signatureHeader } from './sign';
import { signingSecrets } from './store';

/**
 * Seconds before each retry (the Standard Webhooks reference schedule): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h;
 * eight attempts over about 27 hours.
 */
export const WEBHOOK_RETRY_S = [5, 300, 1800, 7200, 18000, 36000, 36000];
/** Seconds a claimed delivery stays with its sender (an attempt takes at most 10 s, DNS included). */
const LEASE_S = 60;
/** Days events and their deliveries are kept (Stripe keeps events 30 days). */
export const WEBHOOK_RETENTION_DAYS = 30;
/** Who the portal's own changes to an endpoint are made by, in the audit log. */
const PORTAL_ACTOR = { stamp: 'portal', email: 'portal' };

export interface SenderMetrics {
  webhookAttempts: { inc(labels: { outcome: string }): void };
  webhookLag: { observe(seconds: number): void };
}

export interface SenderOptions {
  db: Kysely<DB>;
  secrets: Secrets;
  allowPrivate: boolean;
  log: { info(msg: string): void; error(obj: unknown, msg?: string): void };
  metrics?: SenderMetrics;
  /** How the owners of a paused endpoint are told; without it they are not mailed. */
  mail?: Omit<MailDeps, 'db' | 'log'>;
  concurrency?: number;
  pollMs?: number;
}

type Delivery = Selectable<WebhookDeliveryTable>;

export class WebhookSender {
  private running = false;
  private loop: Promise<void> | null = null;
  private readonly inflight = new Set<Promise<void>>();
  private wakeUp: (() => void) | null = null;
  private readonly concurrency: number;
  private readonly pollMs: number;

  constructor(private readonly o: SenderOptions) {
    this.concurrency = Math.max(1, o.concurrency ?? 8);
    this.pollMs = o.pollMs ?? 500;
  }

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  /** Stops taking deliveries and waits for the attempts under way (each ends within its timeout). */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
    await Promise.all(this.inflight);
  }

  wake(): void {
    this.wakeUp?.();
  }

  private async run(): Promise<void> {
    while (this.running) {
      let took = 0;
      const free = this.concurrency - this.inflight.size;
      if (free > 0) {
        try {
          const due = await this.claim(free);
          took = due.length;
          for (const d of due) {
            const p: Promise<void> = this.attempt(d)
              .catch((err) => this.o.log.error({ err, delivery: d.stamp }, `Webhook delivery ${d.stamp}: the attempt could not run`))
              .finally(() => {
                this.inflight.delete(p);
                this.wake();
              });
            this.inflight.add(p);
          }
        } catch (err) {
          this.o.log.error({ err }, 'The webhook sender could not take deliveries');
        }
      }
      if ((took === 0 || this.inflight.size >= this.concurrency) && this.running) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(() => this.wakeUp?.(), this.pollMs);
          this.wakeUp = () => {
            clearTimeout(t);
            this.wakeUp = null;
            resolve();
          };
        });
      }
    }
  }

  /** Takes up to `n` due deliveries of active endpoints, oldest due first, with a lease. */
  async claim(n: number): Promise<Delivery[]> {
    const t = now();
    const r = await sql<Delivery>`
      update webhook_deliveries set locked_until = ${t + LEASE_S}
      where stamp in (
        select d.stamp from webhook_deliveries d join webhook_endpoints e on e.stamp = d.endpoint
        where d.state = 'pending' and d.next_at <= ${t} and (d.locked_until is null or d.locked_until < ${t}) and e.state = 'active'
        order by d.next_at, d.seq
        limit ${n}
        for update of d skip locked
      )
      returning *`.execute(this.o.db);
    return r.rows;
  }

  /** One attempt of a claimed delivery, its log line, and what follows: delivered, a retry later, or given up. */
  async attempt(d: Delivery): Promise<void> {
    const { db, secrets } = this.o;
    const started = now();
    this.o.metrics?.webhookLag.observe(Math.max(0, started - Number(d.next_at ?? started)));
    const endpoint = await db.selectFrom('webhook_endpoints').selectAll().where('stamp', '=', d.endpoint).executeTakeFirst();
    const event = await db.selectFrom('webhook_events').select('body').where('id', '=', d.event).executeTakeFirst();
    if (!endpoint || !event) return;
    let result: AttemptResult;
    try {
      const at = new Date();
      const headers = {
        [WEBHOOK_HEADERS.id]: d.stamp,
        [WEBHOOK_HEADERS.timestamp]: String(Math.floor(at.getTime() / 1000)),
        [WEBHOOK_HEADERS.signature]: signatureHeader(signingSecrets(secrets, endpoint, started), d.stamp, at, event.body),
      };
      result = await postWebhook(endpoint.url, headers, event.body, { allowPrivate: this.o.allowPrivate });
    } catch (err) {
      result = { status: null, durationMs: 0, answer: '', error: err instanceof Error ? err.message : String(err) };
    }
    const t = now();
    const ok = result.status !== null && result.status >= 200 && result.status < 300;
    const attempts = d.attempts + 1;
    const last = attempts > WEBHOOK_RETRY_S.length;
    const state = ok ? 'delivered' : last ? 'failed' : 'pending';
    const error = result.error || (ok ? '' : `HTTP ${result.status}`);
    this.o.metrics?.webhookAttempts.inc({ outcome: ok ? 'delivered' : result.status === null ? 'no_answer' : 'error_status' });
    const pause = await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('webhook_attempts')
        .values({
          delivery: d.stamp,
          at: t,
          status: result.status,
          duration_ms: result.durationMs,
          answer: result.answer,
          error: result.error,
        })
        .execute();
      await trx
        .updateTable('webhook_deliveries')
        .set({
          state,
          attempts,
          next_at: state === 'pending' ? t + WEBHOOK_RETRY_S[attempts - 1] : null,
          locked_until: null,
          last_attempt_at: t,
          last_status: result.status,
          last_error: ok ? '' : error,
        })
        .where('stamp', '=', d.stamp)
        .execute();
      const e = await trx
        .updateTable('webhook_endpoints')
        .set((eb) => ({
          last_attempt_at: t,
          last_status: result.status,
          failing_since: ok ? null : eb.fn.coalesce('failing_since', sql<number>`${t}`),
        }))
        .where('stamp', '=', endpoint.stamp)
        .returning(['failing_since', 'state', 'client', 'url'])
        .executeTakeFirst();
      // Failing for days: paused (its deliveries wait), and the owners are told.
      if (!ok && e && e.state === 'active' && e.failing_since !== null && t - Number(e.failing_since) >= WEBHOOK_PAUSE_AFTER_DAYS * 86400) {
        await trx.updateTable('webhook_endpoints').set({ state: 'failing' }).where('stamp', '=', endpoint.stamp).execute();
        await audit(trx, { client: e.client, actor: PORTAL_ACTOR, action: 'webhook.disable', target: endpoint.stamp, detail: e.url });
        return e;
      }
      return null;
    });
    if (!ok)
      this.o.log.info(`Webhook delivery ${d.stamp} to ${endpoint.url}: attempt ${attempts} failed (${error})${last ? '; giving up' : ''}`);
    if (pause) await this.tellOwners(pause.client, endpoint.name, pause.url);
  }

  private async tellOwners(client: string, name: string, url: string): Promise<void> {
    const mail = this.o.mail;
    if (!mail) return;
    const owners = await this.o.db
      .selectFrom('permissions as p')
      .innerJoin('users as u', 'u.stamp', 'p.user_stamp')
      .innerJoin('clients as c', 'c.stamp', 'p.client_stamp')
      .select(['u.email', 'c.name'])
      .where('p.client_stamp', '=', client)
      .where('p.role', '=', 'owner')
      .where('u.deleted_at', 'is', null)
      .execute();
    for (const o of owners) {
      await queueMail(
        { ...mail, db: this.o.db, log: this.o.log },
        {
          to: o.email,
          subject: `Webhook endpoint paused: ${name}`,
          text: `Every delivery to the webhook endpoint ${name} (${url}) of ${o.name} failed for ${WEBHOOK_PAUSE_AFTER_DAYS} days, so the portal paused it: no new events go to it, and its delivery log keeps what failed.\n\nFix the receiver, then resume the endpoint under Webhooks in the portal; the deliveries still waiting are sent then, and any of the log can be sent again.`,
        },
      );
    }
  }
}

/** Housekeeping: events older than the retention period go, with their deliveries and attempts. */
export async function pruneWebhooks(db: Kysely<DB>, t = now()): Promise<void> {
  await db
    .deleteFrom('webhook_events')
    .where('created_at', '<', t - WEBHOOK_RETENTION_DAYS * 86400)
    .execute();
}
