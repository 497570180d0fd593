// The webhook calls: a client's endpoints (owners only, audited), their delivery log, test events, redelivery, and
// the listen stream that `portal webhooks listen` forwards from. Sending is the worker's (webhooks/sender.ts).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { PassThrough } from 'node:stream';
import {
  checkWebhookUrl,
  parseWebhookEvents,
  WEBHOOK_DELIVERY_PAGE,
  WEBHOOK_ENDPOINTS_MAX,
  WEBHOOK_EVENTS,
  WEBHOOK_LISTEN_PING_S,
  WEBHOOK_MESSAGES,
  WEBHOOK_ROTATION_HOURS,
  WEBHOOK_TEST_EVENT,
} from '@portal/core';
import { defineCall, type CallServices } from './define';
import { requireOwner } from '../access';
import { clientView } from '../views';
import { badRequest, conflict, notFound } from '../errors';
import { newId, now } from '../ids';
import { actorOf, audit } from '../audit';
import type { DB } from '../db/schema';
import type { Caller, Services } from '../services';
import { attemptView, deliveryView, endpointView } from '../webhooks/store';
import { newWebhookSecret, signatureHeader } from '../webhooks/sign';
import { testData } from '../webhooks/samples';

/** The endpoint if the caller owns its client: 404 for an unknown one, 403 for another client's. */
async function requireEndpoint(db: Kysely<DB>, caller: Caller, stamp: string) {
  const endpoint = await db.selectFrom('webhook_endpoints').selectAll().where('stamp', '=', stamp).executeTakeFirst();
  if (!endpoint) throw notFound('Webhook endpoint');
  const client = await requireOwner(db, caller, endpoint.client, WEBHOOK_MESSAGES.ownersOnly);
  return { endpoint, client };
}

async function requireDelivery(db: Kysely<DB>, caller: Caller, stamp: string) {
  const delivery = await db.selectFrom('webhook_deliveries').selectAll().where('stamp', '=', stamp).executeTakeFirst();
  if (!delivery) throw notFound('Delivery');
  return { delivery, ...(await requireEndpoint(db, caller, delivery.endpoint)) };
}

/** A page's keyset cursor: `created_at.seq` of its last row. */
const cursorOf = (r: { created_at: number; seq: number }) => `${r.created_at}.${r.seq}`;
const seqOf = (cursor: string | undefined) => (cursor ? Number(cursor.split('.')[1]) : null);

/** What the group uses: a call's own services, the job queue (test events, redelivery), the signing secrets' key, and
 * whether the server drains (the listen stream ends). */
export type WebhookServices = CallServices & Pick<Services, 'jobs' | 'lifecycle' | 'secrets'>;

export const webhookRoutes: FastifyPluginAsyncZod<WebhookServices> = async (app, s) => {
  const allowPrivate = s.config.webhookAllowPrivate;
  const checkUrl = (url: string) => {
    const problem = checkWebhookUrl(url, allowPrivate);
    if (problem) throw badRequest(problem);
  };

  defineCall(app, s, 'webhookList', {}, async ({ caller, query }) => {
    const client = await requireOwner(s.db, caller, query.client, WEBHOOK_MESSAGES.ownersOnly);
    const after = seqOf(query.cursor);
    let q = s.db.selectFrom('webhook_endpoints').selectAll().where('client', '=', client.stamp).orderBy('seq');
    if (after !== null) q = q.where('seq', '>', after);
    const limit = query.limit ?? (query.cursor ? WEBHOOK_DELIVERY_PAGE : undefined);
    const rows = await (limit ? q.limit(limit + 1) : q).execute();
    const more = limit !== undefined && rows.length > limit;
    const page = more ? rows.slice(0, limit) : rows;
    const t = now();
    return {
      client: clientView(client),
      webhook: {
        list: page.map((e) => endpointView(e, t)),
        ...(limit !== undefined ? { next: more ? cursorOf(page[page.length - 1]) : null } : {}),
      },
    };
  });

  defineCall(app, s, 'webhookCreate', {}, async ({ caller, body }) => {
    const client = await requireOwner(s.db, caller, body.client, WEBHOOK_MESSAGES.ownersOnly);
    checkUrl(body.url);
    const secret = newWebhookSecret();
    const t = now();
    const row = {
      stamp: newId('we_'),
      client: client.stamp,
      name: body.name || new URL(body.url).host,
      url: body.url,
      events: [...new Set(body.events)].join(','),
      secret_enc: s.secrets.encrypt(secret),
      previous_secret_enc: null,
      previous_until: null,
      state: 'active',
      failing_since: null,
      last_attempt_at: null,
      last_status: null,
      created_at: t,
    };
    const made = await s.db.transaction().execute(async (trx) => {
      const { count } = await trx
        .selectFrom('webhook_endpoints')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('client', '=', client.stamp)
        .executeTakeFirstOrThrow();
      if (Number(count) >= WEBHOOK_ENDPOINTS_MAX) throw conflict(WEBHOOK_MESSAGES.tooMany);
      const inserted = await trx.insertInto('webhook_endpoints').values(row).returningAll().executeTakeFirstOrThrow();
      await audit(trx, { client: client.stamp, actor: actorOf(caller), action: 'webhook.create', target: row.stamp, detail: row.url });
      return inserted;
    });
    return { webhook: endpointView(made, t), secret };
  });

  defineCall(app, s, 'webhookShow', {}, async ({ caller, query }) => {
    const { endpoint } = await requireEndpoint(s.db, caller, query.webhook);
    return { webhook: endpointView(endpoint, now()) };
  });

  defineCall(app, s, 'webhookUpdate', {}, async ({ caller, body }) => {
    const { endpoint } = await requireEndpoint(s.db, caller, body.webhook);
    if (body.url !== undefined) checkUrl(body.url);
    const state = body.active === undefined ? endpoint.state : body.active === 1 ? 'active' : 'paused';
    const changes = {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.url !== undefined ? { url: body.url } : {}),
      ...(body.events !== undefined ? { events: [...new Set(body.events)].join(',') } : {}),
      state,
      // Resumed: its failures so far no longer count towards the next pause.
      ...(state === 'active' && endpoint.state !== 'active' ? { failing_since: null } : {}),
    };
    const action = state !== endpoint.state ? (state === 'active' ? 'webhook.resume' : 'webhook.pause') : ('webhook.update' as const);
    const updated = await s.db.transaction().execute(async (trx) => {
      const r = await trx
        .updateTable('webhook_endpoints')
        .set(changes)
        .where('stamp', '=', endpoint.stamp)
        .returningAll()
        .executeTakeFirstOrThrow();
      await audit(trx, { client: endpoint.client, actor: actorOf(caller), action, target: endpoint.stamp, detail: r.url });
      return r;
    });
    if (state === 'active') s.jobs.wake();
    return { webhook: endpointView(updated, now()) };
  });

  defineCall(app, s, 'webhookRotate', {}, async ({ caller, body }) => {
    const { endpoint } = await requireEndpoint(s.db, caller, body.webhook);
    const secret = newWebhookSecret();
    const t = now();
    const updated = await s.db.transaction().execute(async (trx) => {
      const r = await trx
        .updateTable('webhook_endpoints')
        .set({
          secret_enc: s.secrets.encrypt(secret),
          previous_secret_enc: endpoint.secret_enc,
          previous_until: t + WEBHOOK_ROTATION_HOURS * 3600,
        })
        .where('stamp', '=', endpoint.stamp)
        .returningAll()
        .executeTakeFirstOrThrow();
      await audit(trx, {
        client: endpoint.client,
        actor: actorOf(caller),
        action: 'webhook.rotate',
        target: endpoint.stamp,
        detail: endpoint.url,
      });
      return r;
    });
    return { webhook: endpointView(updated, t), secret };
  });

  defineCall(app, s, 'webhookRemove', {}, async ({ caller, body }) => {
    const { endpoint } = await requireEndpoint(s.db, caller, body.webhook);
    await s.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('webhook_endpoints').where('stamp', '=', endpoint.stamp).execute();
      await audit(trx, {
        client: endpoint.client,
        actor: actorOf(caller),
        action: 'webhook.remove',
        target: endpoint.stamp,
        detail: endpoint.url,
      });
    });
    return { ok: true as const };
  });

  defineCall(app, s, 'webhookTest', {}, async ({ caller, body }) => {
    const { endpoint } = await requireEndpoint(s.db, caller, body.webhook);
    const type = body.type ?? WEBHOOK_TEST_EVENT;
    const t = now();
    const event = {
      id: newId('evt_'),
      client: endpoint.client,
      type,
      body: JSON.stringify({ type, timestamp: new Date().toISOString(), data: testData(type, endpoint.client) }),
      only_endpoint: endpoint.stamp,
      created_at: t,
    };
    const delivery = await s.db.transaction().execute(async (trx) => {
      await trx.insertInto('webhook_events').values(event).execute();
      const d = await trx
        .insertInto('webhook_deliveries')
        .values({ stamp: newId('msg_'), endpoint: endpoint.stamp, event: event.id, type, next_at: t, created_at: t })
        .returningAll()
        .executeTakeFirstOrThrow();
      await audit(trx, { client: endpoint.client, actor: actorOf(caller), action: 'webhook.test', target: endpoint.stamp, detail: type });
      return d;
    });
    s.jobs.wake();
    return { delivery: deliveryView(delivery) };
  });

  defineCall(app, s, 'webhookDeliveries', {}, async ({ caller, query }) => {
    const { endpoint } = await requireEndpoint(s.db, caller, query.webhook);
    const limit = query.limit ?? WEBHOOK_DELIVERY_PAGE;
    const before = seqOf(query.cursor);
    let q = s.db.selectFrom('webhook_deliveries').selectAll().where('endpoint', '=', endpoint.stamp).orderBy('seq', 'desc');
    if (before !== null) q = q.where('seq', '<', before);
    const rows = await q.limit(limit + 1).execute();
    const page = rows.slice(0, limit);
    return {
      webhook: endpointView(endpoint, now()),
      delivery: { list: page.map(deliveryView), next: rows.length > limit ? cursorOf(page[page.length - 1]) : null },
    };
  });

  defineCall(app, s, 'webhookDelivery', {}, async ({ caller, query }) => {
    const { delivery } = await requireDelivery(s.db, caller, query.delivery);
    const event = await s.db.selectFrom('webhook_events').select('body').where('id', '=', delivery.event).executeTakeFirst();
    const attempts = await s.db.selectFrom('webhook_attempts').selectAll().where('delivery', '=', delivery.stamp).orderBy('seq').execute();
    return { delivery: deliveryView(delivery), body: event?.body ?? '', attempt: { list: attempts.map(attemptView) } };
  });

  defineCall(app, s, 'webhookRedeliver', {}, async ({ caller, body }) => {
    const { delivery, endpoint } = await requireDelivery(s.db, caller, body.delivery);
    const again = await s.db.transaction().execute(async (trx) => {
      const r = await trx
        .updateTable('webhook_deliveries')
        .set({ state: 'pending', next_at: now(), locked_until: null })
        .where('stamp', '=', delivery.stamp)
        .returningAll()
        .executeTakeFirstOrThrow();
      await audit(trx, {
        client: endpoint.client,
        actor: actorOf(caller),
        action: 'webhook.redeliver',
        target: delivery.stamp,
        detail: delivery.type,
      });
      return r;
    });
    s.jobs.wake();
    return { delivery: deliveryView(again) };
  });

  defineCall(app, s, 'webhookListen', {}, async ({ caller, query, req, reply }) => {
    const client = await requireOwner(s.db, caller, query.client, WEBHOOK_MESSAGES.ownersOnly);
    // The events this stream carries, as its first line says: those asked for, or every one.
    let events: string[] = [...WEBHOOK_EVENTS];
    if (query.events !== undefined && query.events.trim() !== '') {
      const parsed = parseWebhookEvents(query.events);
      if ('error' in parsed) throw badRequest(parsed.error);
      events = parsed.events;
    }
    const secret = newWebhookSecret();
    const { last } = await s.db
      .selectFrom('webhook_events')
      .select((eb) => eb.fn.max('seq').as('last'))
      .executeTakeFirstOrThrow();
    let after = Number(last ?? 0);
    const out = new PassThrough();
    const line = (v: unknown) => out.write(JSON.stringify(v) + '\n');
    line({ type: 'listen', secret, events });
    let open = true;
    let lastPing = Date.now();
    const stop = () => {
      open = false;
      out.end();
    };
    req.raw.once('close', stop);
    reply.raw.once('close', stop);
    const poll = async () => {
      while (open && !s.lifecycle.stopping) {
        let q = s.db
          .selectFrom('webhook_events')
          .select(['seq', 'id', 'type', 'body'])
          .where('client', '=', client.stamp)
          .where('only_endpoint', 'is', null)
          .where('seq', '>', after)
          .orderBy('seq')
          .limit(100);
        if (events.length < WEBHOOK_EVENTS.length) q = q.where('type', 'in', events);
        const rows = await q.execute();
        for (const r of rows) {
          after = Math.max(after, Number(r.seq));
          const at = new Date();
          line({
            type: 'event',
            id: r.id,
            timestamp: String(Math.floor(at.getTime() / 1000)),
            body: r.body,
            signature: signatureHeader([secret], r.id, at, r.body),
          });
        }
        if (Date.now() - lastPing >= WEBHOOK_LISTEN_PING_S * 1000) {
          lastPing = Date.now();
          line({ type: 'ping' });
        }
        if (rows.length < 100) await new Promise((r) => setTimeout(r, 1000));
      }
      if (open) stop();
    };
    void poll().catch((err) => {
      req.log.error({ err }, 'The webhook listen stream stopped');
      stop();
    });
    reply.header('content-type', 'application/x-ndjson; charset=utf-8').header('cache-control', 'no-store');
    void reply.send(out);
    return reply as never;
  });
};
