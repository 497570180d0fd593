// Webhooks end to end: a real receiver on this machine, the server's worker sending to it, signatures verified with
// the Standard Webhooks library, retries, the delivery log, redelivery, pause and resume, rotation, the address
// rules, another client's endpoints out of reach, metrics, and the listen stream.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { WEBHOOK_EVENTS, WEBHOOK_MESSAGES, type WebhookListenLine } from '@portal/core';
import { parseListenLine } from '@portal/core/contract/table';
import { addMember, call, dbKinds, fitData, fitThroughApi, mailTo, signup, startServer, uploadFiles, waitFor } from './harness';
import type { TestServer } from './harness';
import { resolveTarget } from '../src/webhooks/address';

const kinds = await dbKinds();

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** An HTTP receiver on loopback: records every request and answers the next planned status (200 when none). */
async function receiver() {
  const got: Received[] = [];
  const plan: number[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = plan.shift() ?? 200;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(`answer ${status} ${'x'.repeat(2000)}`);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, got, plan, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const headersOf = (r: Received) => ({
  'webhook-id': String(r.headers['webhook-id']),
  'webhook-timestamp': String(r.headers['webhook-timestamp']),
  'webhook-signature': String(r.headers['webhook-signature']),
});
const typeOf = (r: Received) => (JSON.parse(r.body) as { type: string }).type;

describe.each(kinds)('webhooks on the %s database', (kind) => {
  let srv: TestServer;
  let rx: Awaited<ReturnType<typeof receiver>>;
  let A: Awaited<ReturnType<typeof signup>>;
  let hook: { stamp: string; secret: string };

  beforeAll(async () => {
    srv = await startServer(kind, { webhookAllowPrivate: true });
    rx = await receiver();
    A = await signup(srv.url, 'hooks');
  });
  afterAll(async () => {
    await srv?.close();
    await rx?.close();
  });

  const create = async (path: string, events: string[], token = A.token) => {
    const r = await call(srv.url, 'webhookCreate', { token, body: { client: A.client, url: `${rx.url}${path}`, events } });
    expect(r.status).toBe(200);
    return { stamp: r.body.webhook.stamp as string, secret: r.body.secret as string };
  };
  const deliveries = async (webhook: string) =>
    (await call(srv.url, 'webhookDeliveries', { token: A.token, query: { webhook } })).body.delivery.list as Array<{
      stamp: string;
      state: string;
      attempts: number;
      type: string;
    }>;

  it('an owner adds an endpoint and sees its secret once; uploads and requests reach it signed, their data named', async () => {
    hook = await create('/main', ['upload.ready', 'upload.failed', 'run.finished', 'run.failed']);
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const shown = await call(srv.url, 'webhookShow', { token: A.token, query: { webhook: hook.stamp } });
    expect(shown.body.webhook).toMatchObject({
      url: `${rx.url}/main`,
      state: 'active',
      events: ['upload.ready', 'upload.failed', 'run.finished', 'run.failed'],
    });
    expect(JSON.stringify(shown.body)).not.toContain(hook.secret);
    const list = await call(srv.url, 'webhookList', { token: A.token, query: { client: A.client } });
    expect(list.body.webhook.list.map((w: { stamp: string }) => w.stamp)).toEqual([hook.stamp]);

    const project = (await call(srv.url, 'bucketCreate', { token: A.token, body: { client: A.client, name: 'Hooks' } })).body.bucket.stamp;
    const { upload } = await uploadFiles(srv.url, A.token, project, [{ name: 'fit.json', bytes: fitData() }]);
    const ready = await waitFor(async () => rx.got.find((r) => typeOf(r) === 'upload.ready'));
    const event = new Webhook(hook.secret).verify(ready.body, headersOf(ready)) as {
      type: string;
      timestamp: string;
      data: Record<string, unknown>;
    };
    expect(event).toMatchObject({ type: 'upload.ready', data: { id: upload.stamp, project, state: 'Ready' } });
    expect(Date.parse(event.timestamp)).toBeGreaterThan(Date.now() - 60_000);
    expect(ready.headers['content-type']).toBe('application/json');

    const run = await fitThroughApi(srv.url, A.token, { project, upload: upload.stamp, name: 'Hooked fit' }, { inputs: 3, outputs: 2 });
    const done = await waitFor(async () => rx.got.find((r) => typeOf(r).startsWith('run.')), 120_000);
    const runEvent = new Webhook(hook.secret).verify(done.body, headersOf(done)) as { data: Record<string, unknown> };
    expect(runEvent.data).toMatchObject({ id: run.stamp, project, function: 'fit', name: 'Hooked fit' });
    expect(['Finished', 'Failed']).toContain(runEvent.data.state);
    expect(typeof runEvent.data.message).toBe('string');
  }, 180_000);

  it('a 500 is retried with the same webhook-id; the log keeps each attempt; a delivery can be sent again', async () => {
    const before = rx.got.length;
    rx.plan.push(500);
    const test = await call(srv.url, 'webhookTest', { token: A.token, body: { webhook: hook.stamp } });
    expect(test.status).toBe(200);
    const id = test.body.delivery.stamp as string;
    const both = await waitFor(async () => {
      const mine = rx.got.slice(before).filter((r) => r.headers['webhook-id'] === id);
      return mine.length >= 2 ? mine : null;
    });
    for (const r of both)
      expect(new Webhook(hook.secret).verify(r.body, headersOf(r))).toMatchObject({ type: 'webhook.test', data: { test: true } });
    const log = await waitFor(async () => {
      const r = await call(srv.url, 'webhookDelivery', { token: A.token, query: { delivery: id } });
      return r.body.delivery.state === 'delivered' ? r.body : null;
    });
    expect(log.attempt.list.map((a: { status: number }) => a.status)).toEqual([500, 200]);
    expect(log.attempt.list[0].answer).toMatch(/^answer 500 x+$/);
    expect(log.attempt.list[0].answer.length).toBe(1024);
    expect(log.attempt.list[0].durationMs).toBeGreaterThanOrEqual(0);
    expect(JSON.parse(log.body)).toMatchObject({ type: 'webhook.test' });
    expect((await deliveries(hook.stamp)).find((d) => d.stamp === id)).toMatchObject({ state: 'delivered', attempts: 2 });

    const again = await call(srv.url, 'webhookRedeliver', { token: A.token, body: { delivery: id } });
    expect(again.body.delivery.state).toBe('pending');
    await waitFor(async () => rx.got.slice(before).filter((r) => r.headers['webhook-id'] === id).length === 3);
    await waitFor(
      async () => (await call(srv.url, 'webhookDelivery', { token: A.token, query: { delivery: id } })).body.attempt.list.length === 3,
    );
  }, 60_000);

  it('a paused endpoint gets nothing until resumed; paging the log; the audit log names each change', async () => {
    const paused = await call(srv.url, 'webhookUpdate', { token: A.token, body: { webhook: hook.stamp, active: 0, name: 'Main hook' } });
    expect(paused.body.webhook).toMatchObject({ state: 'paused', name: 'Main hook' });
    const other = await create('/other', ['member.joined']);
    const held = (await call(srv.url, 'webhookTest', { token: A.token, body: { webhook: hook.stamp } })).body.delivery.stamp;
    const sent = (await call(srv.url, 'webhookTest', { token: A.token, body: { webhook: other.stamp } })).body.delivery.stamp;
    // The active endpoint's delivery (queued after the held one) goes; the paused one's waits.
    await waitFor(async () => rx.got.some((r) => r.headers['webhook-id'] === sent));
    expect((await deliveries(hook.stamp)).find((d) => d.stamp === held)).toMatchObject({ state: 'pending', attempts: 0 });
    await call(srv.url, 'webhookUpdate', { token: A.token, body: { webhook: hook.stamp, active: 1 } });
    await waitFor(async () => rx.got.some((r) => r.headers['webhook-id'] === held));

    const page = await call(srv.url, 'webhookDeliveries', { token: A.token, query: { webhook: hook.stamp, limit: 2 } });
    expect(page.body.delivery.list).toHaveLength(2);
    expect(page.body.delivery.list[0].stamp).toBe(held);
    const rest = await call(srv.url, 'webhookDeliveries', {
      token: A.token,
      query: { webhook: hook.stamp, cursor: page.body.delivery.next },
    });
    expect(rest.body.delivery.list.map((d: { stamp: string }) => d.stamp)).not.toContain(held);
    expect(rest.body.delivery.list.length).toBeGreaterThan(0);

    const audit = await call(srv.url, 'audit', { token: A.token, query: { client: A.client } });
    const actions = audit.body.audit.list.map((e: { action: string }) => e.action);
    for (const a of ['webhook.create', 'webhook.pause', 'webhook.resume', 'webhook.test', 'webhook.redeliver'])
      expect(actions).toContain(a);
    await call(srv.url, 'webhookRemove', { token: A.token, body: { webhook: other.stamp } });
    expect((await call(srv.url, 'webhookShow', { token: A.token, query: { webhook: other.stamp } })).status).toBe(404);
  }, 60_000);

  it('after a rotation both secrets sign for 24 hours', async () => {
    const rotated = await call(srv.url, 'webhookRotate', { token: A.token, body: { webhook: hook.stamp } });
    const secret = rotated.body.secret as string;
    expect(secret).not.toBe(hook.secret);
    expect(rotated.body.webhook.previousSecretUntil).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) + 24 * 3600 - 60);
    const id = (await call(srv.url, 'webhookTest', { token: A.token, body: { webhook: hook.stamp, type: 'run.finished' } })).body.delivery
      .stamp;
    const r = await waitFor(async () => rx.got.find((x) => x.headers['webhook-id'] === id));
    expect(headersOf(r)['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(secret).verify(r.body, headersOf(r))).toMatchObject({ type: 'run.finished', data: { test: true, function: 'fit' } });
    expect(new Webhook(hook.secret).verify(r.body, headersOf(r))).toMatchObject({ type: 'run.finished' });
    hook.secret = secret;
  }, 30_000);

  it('an endpoint failing for days is paused and its owners mailed', async () => {
    const failing = await create('/failing', ['quote.paid']);
    const t = Math.floor(Date.now() / 1000);
    await srv.built.services.db
      .updateTable('webhook_endpoints')
      .set({ failing_since: t - 3 * 86400 - 10 })
      .where('stamp', '=', failing.stamp)
      .execute();
    rx.plan.push(503);
    await call(srv.url, 'webhookTest', { token: A.token, body: { webhook: failing.stamp } });
    const shown = await waitFor(async () => {
      const w = (await call(srv.url, 'webhookShow', { token: A.token, query: { webhook: failing.stamp } })).body.webhook;
      return w.state === 'failing' ? w : null;
    });
    expect(shown.lastStatus).toBe(503);
    expect(await mailTo(srv.dataDir, A.email)).toContain('/failing');
    const audit = await call(srv.url, 'audit', { token: A.token, query: { client: A.client, action: 'webhook.disable' } });
    expect(audit.body.audit.list[0]).toMatchObject({ target: failing.stamp, actor: { stamp: 'portal' } });
    await call(srv.url, 'webhookRemove', { token: A.token, body: { webhook: failing.stamp } });
  }, 30_000);

  it("another client's endpoints and deliveries are out of reach; members who are not owners are refused", async () => {
    const B = await signup(srv.url, 'intruder');
    const id = (await deliveries(hook.stamp))[0].stamp;
    const tries = [
      await call(srv.url, 'webhookShow', { token: B.token, query: { webhook: hook.stamp } }),
      await call(srv.url, 'webhookUpdate', { token: B.token, body: { webhook: hook.stamp, active: 0 } }),
      await call(srv.url, 'webhookRotate', { token: B.token, body: { webhook: hook.stamp } }),
      await call(srv.url, 'webhookRemove', { token: B.token, body: { webhook: hook.stamp } }),
      await call(srv.url, 'webhookDeliveries', { token: B.token, query: { webhook: hook.stamp } }),
      await call(srv.url, 'webhookDelivery', { token: B.token, query: { delivery: id } }),
      await call(srv.url, 'webhookRedeliver', { token: B.token, body: { delivery: id } }),
      await call(srv.url, 'webhookList', { token: B.token, query: { client: A.client } }),
      await call(srv.url, 'webhookListen', { token: B.token, query: { client: A.client } }),
    ];
    expect(tries.map((r) => r.status).every((s) => s === 403 || s === 404)).toBe(true);
    expect((await call(srv.url, 'webhookShow', { token: A.token, query: { webhook: hook.stamp } })).body.webhook.state).toBe('active');
    // A member of the client who is not an owner.
    await addMember(srv, B.user, A.client);
    const member = await call(srv.url, 'webhookList', { token: B.token, query: { client: A.client } });
    expect(member.status).toBe(403);
    expect(member.body.error.message).toBe(WEBHOOK_MESSAGES.ownersOnly);
  });

  it('the listen stream receives the client’s events, signed with its own secret', async () => {
    const res = await fetch(new URL(`/api/client/webhook/listen?client=${A.client}`, srv.url), {
      headers: { authorization: `Bearer ${A.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffered = '';
    const next = async (): Promise<WebhookListenLine> => {
      for (;;) {
        const nl = buffered.indexOf('\n');
        if (nl >= 0) {
          const line = parseListenLine(buffered.slice(0, nl));
          buffered = buffered.slice(nl + 1);
          if (line) return line;
          continue;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        buffered += decoder.decode(value, { stream: true });
      }
    };
    const hello = await next();
    expect(hello).toMatchObject({ type: 'listen', events: [...WEBHOOK_EVENTS] });
    const secret = (hello as { secret: string }).secret;
    // An event of the client: someone joins it.
    const C = await signup(srv.url, 'joiner');
    await addMember(srv, C.user, A.client);
    let line = await next();
    while (line.type !== 'event') line = await next();
    const verified = new Webhook(secret).verify(line.body, {
      'webhook-id': line.id,
      'webhook-timestamp': line.timestamp,
      'webhook-signature': line.signature,
    });
    expect(verified).toMatchObject({ type: 'member.joined', data: { client: A.client, user: C.user, email: C.email, role: 'member' } });
    await reader.cancel();
  }, 30_000);

  it('reports delivery attempts and lag in /metrics', async () => {
    const text = await (await fetch(srv.metricsUrl!)).text();
    expect(text).toMatch(/^portal_webhook_attempts_total\{outcome="delivered"\} [1-9]/m);
    expect(text).toMatch(/^portal_webhook_attempts_total\{outcome="error_status"\} [1-9]/m);
    expect(text).toMatch(/^portal_webhook_delivery_lag_seconds_count [1-9]/m);
  });
});

describe('webhook addresses', () => {
  let srv: TestServer;
  let rx: Awaited<ReturnType<typeof receiver>>;
  let A: Awaited<ReturnType<typeof signup>>;
  beforeAll(async () => {
    srv = await startServer('embedded');
    rx = await receiver();
    A = await signup(srv.url, 'addr');
  });
  afterAll(async () => {
    await srv?.close();
    await rx?.close();
  });

  it('plain http is refused unless the operator allows private addresses', async () => {
    const r = await call(srv.url, 'webhookCreate', {
      token: A.token,
      body: { client: A.client, url: `${rx.url}/x`, events: ['run.finished'] },
    });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe(WEBHOOK_MESSAGES.httpsOnly);
  });

  it('loopback addresses, and names resolving to them, are refused at delivery time and nothing is sent', async () => {
    const port = new URL(rx.url).port;
    for (const host of ['127.0.0.1', 'localhost', '[::1]']) {
      const made = await call(srv.url, 'webhookCreate', {
        token: A.token,
        body: { client: A.client, url: `https://${host}:${port}/x`, events: ['run.finished'] },
      });
      expect(made.status).toBe(200);
      const id = (await call(srv.url, 'webhookTest', { token: A.token, body: { webhook: made.body.webhook.stamp } })).body.delivery.stamp;
      const log = await waitFor(async () => {
        const d = await call(srv.url, 'webhookDelivery', { token: A.token, query: { delivery: id } });
        return d.body.attempt.list.length ? d.body : null;
      });
      expect(log.attempt.list[0]).toMatchObject({ status: null });
      expect(log.attempt.list[0].error).toMatch(/loopback address: webhooks go to public addresses only/);
    }
    expect(rx.got).toEqual([]);
  }, 30_000);

  it('checks every address a name resolves to, and allows private ones only with the flag', async () => {
    const to = (...addresses: string[]) =>
      (async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))) as never;
    await expect(resolveTarget('https://hooks.example.test/x', false, to('127.0.0.1'))).rejects.toThrow(/127\.0\.0\.1, a loopback address/);
    await expect(resolveTarget('https://hooks.example.test/x', false, to('93.184.216.34', '10.0.0.5'))).rejects.toThrow(/private address/);
    await expect(resolveTarget('https://hooks.example.test/x', false, to('169.254.169.254'))).rejects.toThrow(/linkLocal address/);
    await expect(resolveTarget('https://[::ffff:127.0.0.1]/x', false)).rejects.toThrow(/loopback/);
    expect(await resolveTarget('https://hooks.example.test/x', false, to('93.184.216.34'))).toMatchObject({
      address: '93.184.216.34',
      family: 4,
    });
    expect(await resolveTarget('http://hooks.example.test/x', true, to('127.0.0.1'))).toMatchObject({ address: '127.0.0.1' });
    await expect(resolveTarget('http://hooks.example.test/x', false, to('93.184.216.34'))).rejects.toThrow(WEBHOOK_MESSAGES.httpsOnly);
  });
});
