// Money over HTTP on both databases: what the balance counts, what can be paid, and that paying starts one run, once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, shrinkPrice, type CallName, type CallResponse } from '@portal/core';
import { CALLS } from '@portal/core/contract/table';
import { call, dbKinds, signup, startServer, uploadFiles, type TestServer } from './harness';
import { QUOTE_GONE_MESSAGE } from '../src/billing/shrink';

const kinds = await dbKinds();
const parse = <N extends CallName>(name: N, body: unknown): CallResponse<N> => CALLS[name].response.parse(body) as CallResponse<N>;
const PY_MODEL = Buffer.from(
  'import torch.nn as nn\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc1 = nn.Linear(10, 20)\n        self.fc2 = nn.Linear(20, 2)\n',
);
const PARAMS = 10 * 20 + 20 + 20 * 2 + 2;

describe.each(kinds)('billing on the %s database', (kind) => {
  let srv: TestServer;
  let base: string;

  beforeAll(async () => {
    srv = await startServer(kind);
    base = srv.url;
  });
  afterAll(async () => {
    await srv?.close();
  });

  /** A user with `credit` input parameters of free credit and a project holding one Ready .py model. */
  async function setup(credit = 0) {
    const U = await signup(base, 'money');
    await srv.built.services.db.updateTable('clients').set({ credit_total: credit }).where('stamp', '=', U.client).execute();
    const project = parse(
      'bucketCreate',
      (await call(base, 'bucketCreate', { token: U.token, body: { client: U.client, name: 'Money' } })).body,
    ).bucket;
    const { upload } = await uploadFiles(base, U.token, project.stamp, [{ name: 'model.py', bytes: PY_MODEL }]);
    expect(upload.flight).toBe('Ready');
    const pile = parse(
      'pileCreate',
      (await call(base, 'pileCreate', { token: U.token, body: { bucket: project.stamp, variety: 'ShrinkService', param: {} } })).body,
    ).pile;
    const quote = async (uploadId = upload.stamp) =>
      call(base, 'shrinkCreate', {
        token: U.token,
        body: { bucket: project.stamp, function: 'shrink', rend: uploadId, pile: pile.stamp, name: 'Shrink', desc: '' },
      });
    const billing = async () =>
      parse('billingStatus', (await call(base, 'billingStatus', { token: U.token, query: { client: U.client } })).body).billing;
    const pay = async (q: string) => {
      const url = new URL((await billing()).portalUrl);
      url.pathname += `/${encodeURIComponent(q)}`;
      const r = await fetch(url, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: '',
      });
      return { status: r.status, html: await r.text() };
    };
    const page = async () => (await fetch((await billing()).portalUrl)).text();
    const runsOf = (q: string) => srv.built.services.db.selectFrom('runs').select('stamp').where('quote', '=', q).execute();
    const jobsOf = async (q: string) => {
      const runs = (await runsOf(q)).map((r) => r.stamp);
      return runs.length ? srv.built.services.db.selectFrom('jobs').select('id').where('ref', 'in', runs).execute() : [];
    };
    return { U, project, upload, pile, quote, billing, pay, page, runsOf, jobsOf };
  }

  it("a removed project's unpaid quote leaves the balance, leaves the payment page, and paying it is refused with a sentence", async () => {
    const m = await setup();
    const q = parse('shrinkCreate', (await m.quote()).body).quote;
    expect(q).toMatchObject({ state: 'Unpaid', cent: 22 });
    expect((await m.billing()).accountCentBalance).toBe(22);
    expect(await m.page()).toContain(q.invoiceNum);

    expect((await call(base, 'bucketRemove', { token: m.U.token, body: { bucket: m.project.stamp, active: 0 } })).status).toBe(200);
    expect((await m.billing()).accountCentBalance).toBe(0);
    expect(await m.page()).not.toContain(q.invoiceNum);
    const refused = await m.pay(q.stamp);
    expect(refused.status).toBe(409);
    expect(refused.html).toContain(QUOTE_GONE_MESSAGE.replace(/'/g, '&#39;'));
    expect(await m.runsOf(q.stamp)).toEqual([]);
    const row = await srv.built.services.db
      .selectFrom('quotes')
      .select(['state', 'paid_at'])
      .where('stamp', '=', q.stamp)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ state: 'Unpaid', paid_at: null });
  });

  it("a removed upload's unpaid quote leaves the balance and cannot be paid; the other quote stays owed", async () => {
    const m = await setup();
    const gone = parse('shrinkCreate', (await m.quote()).body).quote;
    const second = await uploadFiles(base, m.U.token, m.project.stamp, [{ name: 'other.py', bytes: PY_MODEL }]);
    const kept = parse('shrinkCreate', (await m.quote(second.upload.stamp)).body).quote;
    expect((await m.billing()).accountCentBalance).toBe(44);

    await call(base, 'rendRemove', { token: m.U.token, body: { rend: m.upload.stamp, active: 0 } });
    expect((await m.billing()).accountCentBalance).toBe(22);
    const html = await m.page();
    expect(html).not.toContain(gone.invoiceNum);
    expect(html).toContain(kept.invoiceNum);
    expect((await m.pay(gone.stamp)).status).toBe(409);
    expect(await m.runsOf(gone.stamp)).toEqual([]);
    expect((await m.pay(kept.stamp)).status).toBe(303);
    expect(await m.runsOf(kept.stamp)).toHaveLength(1);
    expect((await m.billing()).accountCentBalance).toBe(0);
  });

  it('ten concurrent payments of one quote, then a payment of the Paid quote: one run, one job, charged once', async () => {
    const m = await setup();
    const q = parse('shrinkCreate', (await m.quote()).body).quote;
    const url = new URL((await m.billing()).portalUrl);
    url.pathname += `/${q.stamp}`;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(303));
    expect(await m.runsOf(q.stamp)).toHaveLength(1);
    expect(await m.jobsOf(q.stamp)).toHaveLength(1);
    const again = await m.pay(q.stamp);
    expect(again.status).toBe(303);
    expect(await m.runsOf(q.stamp)).toHaveLength(1);
    expect(await m.jobsOf(q.stamp)).toHaveLength(1);
    const status = parse('quoteStatus', (await call(base, 'quoteStatus', { token: m.U.token, query: { quote: q.stamp } })).body);
    expect(status.quote.record).toMatchObject({ state: 'Paid', cent: 22 });
    expect((await m.billing()).accountCentBalance).toBe(0);
    // The audit log has the quote once created and once paid, however many times the form was sent.
    const audit = parse('audit', (await call(base, 'audit', { token: m.U.token, query: { client: m.U.client } })).body).audit.list;
    expect(audit.filter((e) => e.target === q.stamp).map((e) => [e.action, e.actor.email, e.detail])).toEqual([
      ['quote.pay', 'payment portal', 'Shrink ($0.22)'],
      ['quote.create', m.U.email, 'Shrink ($0.22)'],
    ]);
  });

  it('a quote free credit covers is paid by the server at once; the estimate rule gives the same figures the quote bills', async () => {
    const m = await setup(PARAMS);
    const before = await m.billing();
    const price = shrinkPrice(PARAMS, Number(before.creditBalance) * 1e6);
    expect(price).toMatchObject({ estimateCents: 22, freeCreditCents: 22, amountDueCents: 0 });
    const q = parse('shrinkCreate', (await m.quote()).body).quote;
    expect(q).toMatchObject({ state: 'Paid', cent: price.amountDueCents });
    expect(await m.runsOf(q.stamp)).toHaveLength(1);
    // Credit spent: the next quote of the same model is billed in full, as the rule says with no credit left.
    const next = parse('shrinkCreate', (await m.quote()).body).quote;
    expect(next).toMatchObject({ state: 'Unpaid', cent: shrinkPrice(PARAMS, 0).amountDueCents });
  });

  it('a model counted at 0 parameters, or an upload holding more than the model, is refused, never quoted for free', async () => {
    const m = await setup(1_000_000);
    await srv.built.services.db.updateTable('uploads').set({ inputs: 0 }).where('rend', '=', m.upload.stamp).execute();
    const zero = await m.quote();
    expect(zero.status).toBe(400);
    expect(zero.body.error.message).toBe(MESSAGES.shrinkNoParameters);
    expect((await m.billing()).creditConsumed).toBe('0');
    const mixed = await uploadFiles(base, m.U.token, m.project.stamp, [
      { name: 'model.py', bytes: PY_MODEL },
      { name: 'more.py', bytes: PY_MODEL },
    ]);
    const two = await m.quote(mixed.upload.stamp);
    expect(two.status).toBe(400);
    expect(two.body.error.message).toBe(MESSAGES.shrinkSingleFile);
    const quotes = await srv.built.services.db.selectFrom('quotes').select('stamp').where('bucket', '=', m.project.stamp).execute();
    expect(quotes).toEqual([]);
    expect((await m.billing()).creditConsumed).toBe('0');
  });
});
