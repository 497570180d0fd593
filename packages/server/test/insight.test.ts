// Run insight against the real server and worker: a fit's event log, rerun, usage per UTC day, request list filters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isFinalState, type RunEvent } from '@portal/core';
import { CALLS } from '@portal/core/contract/table';
import { call, dbKinds, fitData, signup, startServer, uploadFiles, waitFor, type TestServer } from './harness';

const kinds = await dbKinds();
const FIT = { explainability: false, input_column_size: 3, output_column_size: 2, task_target_size: 1, task: 'regression' } as const;

describe.each(kinds)('run insight on the %s database', (kind) => {
  let srv: TestServer;
  let A: Awaited<ReturnType<typeof signup>>;
  let project: string;
  let upload: string;
  let fit: string;
  let generate: string;

  const settled = (run: string) =>
    waitFor(async () => {
      const r = (await call(srv.url, 'runStatus', { token: A.token, query: { run } })).body.run.record;
      return isFinalState(r.state) && r;
    }, 60_000);
  const events = async (run: string, after = 0): Promise<RunEvent[]> => {
    const r = await call(srv.url, 'runEvents', { token: A.token, query: { run, after } });
    expect(r.status).toBe(200);
    return CALLS.runEvents.response.parse(r.body).event.list;
  };

  beforeAll(async () => {
    srv = await startServer(kind);
    A = await signup(srv.url, 'insight');
    project = (await call(srv.url, 'bucketCreate', { token: A.token, body: { client: A.client, name: 'Insight' } })).body.bucket.stamp;
    upload = (await uploadFiles(srv.url, A.token, project, [{ name: 'd.json', bytes: fitData(400, 3) }])).upload.stamp;
    const pile = (await call(srv.url, 'pileCreate', { token: A.token, body: { bucket: project, variety: 'FitModel', param: FIT } })).body
      .pile.stamp;
    fit = (
      await call(srv.url, 'runCreate', {
        token: A.token,
        body: { bucket: project, function: 'fit', rend: upload, pile, name: 'first fit' },
      })
    ).body.run.stamp;
    generate = (
      await call(srv.url, 'runCreate', {
        token: A.token,
        body: { bucket: project, function: 'generate', rend: upload, fit, name: 'first gen' },
      })
    ).body.run.stamp;
    await settled(fit);
    await settled(generate);
  }, 120_000);
  afterAll(async () => {
    await srv?.close();
  });

  it("a real fit's events arrive in order: its states, per-epoch progress with decreasing loss, the worker's sentences", async () => {
    const list = await events(fit);
    const seqs = list.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(list.filter((e) => e.kind === 'state').map((e) => e.data?.state)).toEqual(['Pending', 'Processing', 'Finished']);
    expect(list[0].kind).toBe('state');
    expect(list.at(-1)).toMatchObject({ kind: 'state', message: 'Finished' });
    const progress = list.filter((e) => e.kind === 'progress');
    expect(progress.length).toBeGreaterThan(0);
    // Every epoch is in the points, once, in order, and the last event names the last epoch trained.
    const points = progress.flatMap((e) => e.data!.points as Array<{ epoch: number; loss: number; valLoss: number }>);
    expect(points.map((p) => p.epoch)).toEqual(points.map((_, i) => i + 1));
    expect(progress.at(-1)!.data).toMatchObject({ epoch: points.length });
    expect(points.length).toBeGreaterThan(3);
    expect(points.at(-1)!.loss).toBeLessThan(points[0].loss);
    expect(Math.min(...points.map((p) => p.valLoss))).toBeLessThan(points[0].valLoss);
    const logs = list.filter((e) => e.kind === 'log').map((e) => e.message);
    expect(logs.some((m) => m.startsWith('Held-out score: R²'))).toBe(true);
    // Paging: after the last seq there is nothing more.
    expect(await events(fit, seqs.at(-1)!)).toEqual([]);
    expect((await events(fit, seqs[0])).map((e) => e.seq)).toEqual(seqs.slice(1));
    const record = (await settled(fit)) as { startedAt: number; finishedAt: number; createdAt: number };
    expect(record.startedAt).toBeGreaterThanOrEqual(record.createdAt);
    expect(record.finishedAt).toBeGreaterThanOrEqual(record.startedAt);
  });

  it("every event of a run names the request that created it: its states, progress and the worker's sentences", async () => {
    const db = srv.built.services.db;
    for (const [run, kinds] of [
      [fit, ['log', 'progress', 'state']],
      [generate, ['progress', 'state']],
    ] as const) {
      const rows = await db.selectFrom('run_events').select(['kind', 'request_id']).where('run', '=', run).execute();
      expect([...new Set(rows.map((r) => r.kind))].sort()).toEqual(kinds);
      const job = await db.selectFrom('jobs').select('request_id').where('ref', '=', run).executeTakeFirstOrThrow();
      expect(job.request_id).toMatch(/^[0-9a-f-]{36}$/);
      expect([...new Set(rows.map((r) => r.request_id))]).toEqual([job.request_id]);
    }
  });

  it('a generate reports rows of total', async () => {
    const progress = (await events(generate)).filter((e) => e.kind === 'progress');
    expect(progress.at(-1)!.data).toEqual({ rows: 400, total: 400 });
  });

  it('a rerun of a fit makes a new fit and its generate run with the same upload and parameters', async () => {
    const r = await call(srv.url, 'runRerun', { token: A.token, body: { run: fit } });
    expect(r.status).toBe(200);
    const { run, generate: gen } = CALLS.runRerun.response.parse(r.body);
    expect(run).toMatchObject({
      function: 'fit',
      name: 'first fit',
      rend: { stamp: upload },
      finishedAt: null,
    });
    // The answer is read before the worker is woken, but a worker polling may take it the moment it is made.
    expect(['Pending', 'Processing']).toContain(run.state);
    expect(run.stamp).not.toBe(fit);
    expect(gen).toMatchObject({ function: 'generate', name: 'first gen', fit: run.stamp, rend: { stamp: upload } });
    expect((await settled(run.stamp)).state).toBe('Finished');
    expect((await settled(gen!.stamp)).state).toBe('Finished');
    const again = await call(srv.url, 'runRerun', { token: A.token, body: { run: generate } });
    expect(CALLS.runRerun.response.parse(again.body).run).toMatchObject({ function: 'generate', fit });
    await settled(again.body.run.stamp);
  }, 120_000);

  it('the requests list filters by state and function', async () => {
    const list = async (query: Record<string, string>) =>
      (await call(srv.url, 'runList', { token: A.token, query: { bucket: project, active: '1', ...query } })).body.run.list as Array<{
        function: string;
        state: string;
      }>;
    const fits = await list({ function: 'fit' });
    expect(fits.length).toBe(2);
    expect(fits.every((r) => r.function === 'fit')).toBe(true);
    expect((await list({ function: 'generate', state: 'Finished' })).length).toBe(3);
    expect(await list({ state: 'Failed' })).toEqual([]);
    const bad = await call(srv.url, 'runList', { token: A.token, query: { bucket: project, function: 'dance' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^function: /);
  });

  it('usage counts requests and parameters per UTC day, with the zero days of the period, and its totals', async () => {
    const db = srv.built.services.db;
    // One fit moved two days back, so a past day has it and the day between is zero.
    const twoDaysAgo = Math.floor(Date.now() / 1000) - 2 * 86_400;
    await db.updateTable('runs').set({ created_at: twoDaysAgo }).where('stamp', '=', fit).execute();
    // Each request processed the same upload: its input parameters as the analysis counted them.
    const P = Number((await db.selectFrom('runs').select('inputs').where('stamp', '=', fit).executeTakeFirstOrThrow()).inputs);
    expect(P).toBeGreaterThan(0);
    const r = await call(srv.url, 'clientUsage', { token: A.token, query: { client: A.client, days: 7 } });
    expect(r.status).toBe(200);
    const { usage } = CALLS.clientUsage.response.parse(r.body);
    expect(usage.days.length).toBe(7);
    const today = new Date().toISOString().slice(0, 10);
    const past = new Date(twoDaysAgo * 1000).toISOString().slice(0, 10);
    expect(usage.days.at(-1)!.date).toBe(today);
    expect(usage.days.map((d) => d.date)).toEqual([...usage.days.map((d) => d.date)].sort());
    expect(usage.days.find((d) => d.date === past)).toEqual({ date: past, fits: 1, generates: 0, shrinks: 0, parameters: P, cents: 0 });
    expect(usage.days.at(-2)).toMatchObject({ fits: 0, generates: 0, parameters: 0 });
    expect(usage.days.at(-1)).toMatchObject({ fits: 1, generates: 3, parameters: 4 * P });
    expect(usage.totals).toEqual({ fits: 2, generates: 3, shrinks: 0, parameters: 5 * P, cents: 0 });
    const one = CALLS.clientUsage.response.parse(
      (await call(srv.url, 'clientUsage', { token: A.token, query: { client: A.client, days: 1 } })).body,
    );
    expect(one.usage.days.length).toBe(1);
    for (const days of ['0', '401', '2.5', 'x']) {
      const bad = await call(srv.url, 'clientUsage', { token: A.token, query: { client: A.client, days } });
      expect(bad.status, days).toBe(400);
      expect(bad.body.error.message).toMatch(/days/);
    }
  });

  it('usage splits by project (all of them) and narrows its days to one project', async () => {
    const other = (await call(srv.url, 'bucketCreate', { token: A.token, body: { client: A.client, name: 'Quiet' } })).body.bucket.stamp;
    const all = CALLS.clientUsage.response.parse(
      (await call(srv.url, 'clientUsage', { token: A.token, query: { client: A.client, days: 7 } })).body,
    );
    expect(all.usage.projects).toEqual([expect.objectContaining({ bucket: project, fits: 2, generates: 3, shrinks: 0 })]);
    const quiet = CALLS.clientUsage.response.parse(
      (await call(srv.url, 'clientUsage', { token: A.token, query: { client: A.client, days: 7, bucket: other } })).body,
    );
    expect(quiet.usage.totals).toEqual({ fits: 0, generates: 0, shrinks: 0, parameters: 0, cents: 0 });
    expect(quiet.usage.projects).toEqual(all.usage.projects);
    const mine = CALLS.clientUsage.response.parse(
      (await call(srv.url, 'clientUsage', { token: A.token, query: { client: A.client, days: 7, bucket: project } })).body,
    );
    expect(mine.usage.totals).toEqual(all.usage.totals);
  });

  it('the audit log filters by actor (id or email, any case), action and time', async () => {
    const audit = async (query: Record<string, string | number>) => {
      const r = await call(srv.url, 'audit', { token: A.token, query: { client: A.client, ...query } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return CALLS.audit.response.parse(r.body).audit.list;
    };
    const every = await audit({});
    expect(every.length).toBeGreaterThan(0);
    expect(await audit({ actor: A.email.toUpperCase() })).toEqual(every.filter((e) => e.actor.stamp === A.user));
    expect(await audit({ actor: A.user })).toEqual(every.filter((e) => e.actor.stamp === A.user));
    expect(await audit({ actor: 'nobody@example.com' })).toEqual([]);
    const first = every[every.length - 1]!;
    expect(await audit({ action: first.action })).toEqual(every.filter((e) => e.action === first.action));
    expect(await audit({ from: Math.floor(Date.now() / 1000) + 3600 })).toEqual([]);
    expect(await audit({ to: first.at })).toEqual([]);
    expect(await audit({ from: first.at, to: Math.floor(Date.now() / 1000) + 1 })).toEqual(every);
    for (const bad of [{ from: 'soon' }, { to: -1 }, { from: 1e15 }]) {
      const r = await call(srv.url, 'audit', { token: A.token, query: { client: A.client, ...bad } });
      expect(r.status, JSON.stringify(bad)).toBe(400);
    }
  });

  it('a fit that fails ends its log with the failure sentence, and its run with when it settled', async () => {
    // Rows of 3 values for a request that needs 3 inputs and 2 targets: training refuses the data.
    const thin = (
      await uploadFiles(srv.url, A.token, project, [{ name: 'thin.json', bytes: Buffer.from(JSON.stringify(Array(20).fill([1, 2, 3]))) }])
    ).upload.stamp;
    const pile = (
      await call(srv.url, 'pileCreate', {
        token: A.token,
        body: { bucket: project, variety: 'FitModel', param: { ...FIT, task_target_size: 1, input_column_size: 3 } },
      })
    ).body.pile.stamp;
    const bad = (
      await call(srv.url, 'runCreate', { token: A.token, body: { bucket: project, function: 'fit', rend: thin, pile, name: 'bad fit' } })
    ).body.run.stamp;
    const record = await settled(bad);
    expect(record.state).toBe('Failed');
    const list = await events(bad);
    expect(list.filter((e) => e.kind === 'state').map((e) => e.data?.state)).toEqual(['Pending', 'Processing', 'Failed']);
    expect(list.at(-1)!.message).toBe(`Failed: ${record.message}`);
    expect(record.finishedAt).toBeGreaterThanOrEqual(record.startedAt);
  }, 60_000);

  it("a removed run's events are not served, and it cannot be run again", async () => {
    await call(srv.url, 'runRemove', { token: A.token, body: { run: generate, active: 0 } });
    expect((await call(srv.url, 'runEvents', { token: A.token, query: { run: generate } })).status).toBe(404);
    expect((await call(srv.url, 'runRerun', { token: A.token, body: { run: generate } })).status).toBe(404);
  });
});
