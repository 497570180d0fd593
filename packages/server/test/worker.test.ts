// The job queue and worker: claiming order and fairness, waiting, crash recovery, housekeeping; and on a real
// server, the limits that stop a job (time, memory), slots, fairness between clients, the checksum check before a
// fit, and the put-back at shutdown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { call, createPgDatabase, dbKinds, fitData, freshDataDir, sha256, signup, startServer, uploadFiles, waitFor } from './harness';
import type { TestServer } from './harness';
import { newJobRow, openDatabase, type Database } from '../src/db/index';
import type { Config } from '../src/config';
import { JobQueue } from '../src/worker/queue';
import { CHANGED_MESSAGE, CRASH_MESSAGE, DEFAULT_LIMITS, Worker, sentence, workerSettings } from '../src/worker/worker';
import { LocalStorage } from '../src/storage/local';
import { Secrets } from '../src/auth/secrets';
import { now } from '../src/ids';
import { hostileCorpus } from './hostile';

const quiet = { info: () => {}, error: () => {} };

describe('worker', () => {
  let dir: string;
  let database: Database;
  let worker: Worker;
  const jobs = new JobQueue();

  beforeAll(async () => {
    dir = await freshDataDir();
    database = await openDatabase({ dataDir: dir });
    const log = { info: () => {}, error: () => {} };
    worker = new Worker({ db: database.db, storage: new LocalStorage(dir, new Secrets('s')), jobs, log, exclusive: true });
  });
  afterAll(async () => {
    await database?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('claims queued jobs oldest first, one claimant each, counting the attempt', async () => {
    const db = database.db;
    await jobs.enqueue(db, 'analyze', 'first');
    await jobs.enqueue(db, 'analyze', 'second');
    const [a, b, c] = await Promise.all([worker.claim(), worker.claim(), worker.claim()]);
    expect([a?.ref, b?.ref]).toEqual(['first', 'second']);
    expect(c).toBeUndefined();
    expect(a).toMatchObject({ state: 'running', attempts: 1 });
    await db.deleteFrom('jobs').execute();
  });

  it('a job whose subject is gone finishes quietly', async () => {
    await jobs.enqueue(database.db, 'analyze', 'no-such-item');
    expect(await worker.runOnce()).toBe(true);
    const job = await database.db.selectFrom('jobs').selectAll().where('ref', '=', 'no-such-item').executeTakeFirstOrThrow();
    expect(job.state).toBe('done');
    expect(await worker.runOnce()).toBe(false);
  });

  it('after a crash a running job is queued again once, then fails with a message', async () => {
    const db = database.db;
    const t = now();
    await db
      .insertInto('jobs')
      .values([
        { kind: 'fit', ref: 'once', state: 'running', attempts: 1, run_after: t, locked_until: t + 30, error: null, created_at: t },
        { kind: 'fit', ref: 'twice', state: 'running', attempts: 2, run_after: t, locked_until: t + 30, error: null, created_at: t },
      ])
      .execute();
    await worker.recover(true);
    const rows = await db
      .selectFrom('jobs')
      .select(['ref', 'state', 'error'])
      .where('ref', 'in', ['once', 'twice'])
      .orderBy('ref')
      .execute();
    expect(rows).toEqual([
      { ref: 'once', state: 'queued', error: null },
      { ref: 'twice', state: 'failed', error: CRASH_MESSAGE },
    ]);
  });

  it('housekeeping drops old finished jobs and expired reset tokens, and keeps the rest', async () => {
    const db = database.db;
    const old = now() - 8 * 24 * 60 * 60;
    await db
      .insertInto('jobs')
      .values({
        kind: 'analyze',
        ref: 'ancient',
        state: 'done',
        attempts: 1,
        run_after: old,
        locked_until: null,
        error: null,
        created_at: old,
      })
      .execute();
    await db
      .insertInto('reset_tokens')
      .values([
        { jti: 'expired', user_stamp: 'u', expires_at: old, used_at: null },
        { jti: 'fresh', user_stamp: 'u', expires_at: now() + 600, used_at: null },
      ])
      .execute();
    await worker.housekeep();
    expect(await db.selectFrom('jobs').select('ref').where('ref', '=', 'ancient').execute()).toEqual([]);
    expect((await db.selectFrom('reset_tokens').select('jti').execute()).map((r) => r.jti)).toEqual(['fresh']);
    expect(await db.selectFrom('jobs').select('ref').where('ref', '=', 'once').execute()).toHaveLength(1);
  });

  it('failure messages are sentences', () => {
    expect(sentence('  the file is empty ')).toBe('the file is empty.');
    expect(sentence('Done!')).toBe('Done!');
    expect(sentence('')).toBe('Processing failed.');
  });
});

const FIT_PARAM = { explainability: false, input_column_size: 3, output_column_size: 5, task_target_size: 1, task: 'regression' };

/** A project with one Ready upload of `bytes` for a new client. */
async function projectWithUpload(url: string, label: string, bytes: Buffer) {
  const A = await signup(url, label);
  const project = (await call(url, 'bucketCreate', { token: A.token, body: { client: A.client, name: label } })).body.bucket
    .stamp as string;
  const { upload, items } = await uploadFiles(url, A.token, project, [{ name: `${label}.json`, bytes }]);
  return { ...A, project, upload, items };
}

async function startFit(url: string, p: Awaited<ReturnType<typeof projectWithUpload>>, name = 'fit') {
  const pile = (await call(url, 'pileCreate', { token: p.token, body: { bucket: p.project, variety: 'FitModel', param: FIT_PARAM } })).body
    .pile.stamp;
  const run = await call(url, 'runCreate', {
    token: p.token,
    body: { bucket: p.project, function: 'fit', rend: p.upload.stamp, pile, name },
  });
  expect(run.status).toBe(200);
  return run.body.run.stamp as string;
}

/** Sends files as a new upload and finishes it without waiting for the analysis; the upload's stamp. */
async function sendFiles(base: string, token: string, project: string, files: Array<{ name: string; bytes: Buffer }>): Promise<string> {
  const upload = (await call(base, 'rendCreate', { token, body: { bucket: project, name: files[0].name } })).body.rend.stamp as string;
  for (const f of files) {
    const reg = await call(base, 'uploadRegister', {
      token,
      body: { rend: upload, name: f.name, file: { name: f.name, size: f.bytes.length, checksum: sha256(f.bytes) } },
    });
    expect(reg.status, JSON.stringify(reg.body)).toBe(200);
    expect((await fetch(reg.body.upload.url, { method: 'PUT', body: new Uint8Array(f.bytes) })).status).toBe(200);
    expect((await call(base, 'uploadFinish', { token, body: { upload: reg.body.upload.stamp } })).status).toBe(200);
  }
  await call(base, 'rendFinish', { token, body: { rend: upload } });
  return upload;
}

const runState = async (url: string, token: string, run: string) =>
  (await call(url, 'runStatus', { token, query: { run } })).body.run.record as { state: string; message: string };
const settledRun = (url: string, token: string, run: string) =>
  waitFor(async () => {
    const r = await runState(url, token, run);
    return r.state === 'Finished' || r.state === 'Failed' ? r : null;
  }, 60_000);

describe('worker limits, slots and fairness (real server, jobs in processes of their own)', () => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
  });
  const limits = (o: Partial<Config['jobTimeoutS']>) => ({ ...DEFAULT_LIMITS.timeoutS, ...o });

  it('a job past its time limit fails with a sentence that says what to do, and the server carries on', async () => {
    // A limit far below what reading, checking and analysing the plan's largest file takes on any machine (about 0.9 MB).
    const s = await startServer('embedded', { jobTimeoutS: limits({ analyze: 0.005, fit: 0.005 }) });
    servers.push(s);
    const A = await signup(s.url, 'slow');
    const project = (await call(s.url, 'bucketCreate', { token: A.token, body: { client: A.client, name: 'Slow' } })).body.bucket.stamp;
    const { upload } = await uploadFiles(s.url, A.token, project, [{ name: 'rows.json', bytes: fitData(30_000, 3) }]);
    expect(upload.flight).toBe('Failed');
    expect(upload.upload.list[0]).toMatchObject({
      state: 'Failed',
      error: 'The file took longer than 0.005 s to analyse. Check that it is a valid .json file, or split it into smaller files.',
    });
    // The server still answers, and the job is failed, not queued to crash again.
    expect((await call(s.url, 'bucketList', { token: A.token, query: { client: A.client } })).status).toBe(200);
    const job = await s.built.services.db
      .selectFrom('jobs')
      .selectAll()
      .where('ref', '=', upload.upload.list[0].stamp)
      .executeTakeFirstOrThrow();
    expect(job).toMatchObject({ state: 'failed', attempts: 1 });
  });

  it('a job past its memory cap is stopped and fails with a sentence; other jobs are untouched', async () => {
    // Below what a Node process needs to start: every job overruns, deterministically.
    const s = await startServer('embedded', { jobMemoryMb: 20 });
    servers.push(s);
    const A = await signup(s.url, 'big');
    const project = (await call(s.url, 'bucketCreate', { token: A.token, body: { client: A.client, name: 'Big' } })).body.bucket.stamp;
    const { upload } = await uploadFiles(s.url, A.token, project, [{ name: 'rows.json', bytes: fitData(200, 3) }]);
    expect(upload.upload.list[0]).toMatchObject({
      state: 'Failed',
      error: 'The file needed more than 20 MB of memory to analyse. Check that it is a valid .json file, or split it into smaller files.',
    });
    expect((await call(s.url, 'bucketList', { token: A.token, query: { client: A.client } })).status).toBe(200);
  });

  it('a fit past its time limit fails the run and its model with a sentence', async () => {
    const s = await startServer('embedded', { jobTimeoutS: limits({ fit: 0.05 }) });
    servers.push(s);
    const p = await projectWithUpload(s.url, 'fitslow', fitData(500, 3));
    const run = await startFit(s.url, p);
    expect(await settledRun(s.url, p.token, run)).toMatchObject({
      state: 'Failed',
      message: 'Training took longer than 0.05 s, the limit for one request. Train on a smaller data file or with fewer output columns.',
    });
  });

  it('runs several jobs at once, one per slot', async () => {
    const s = await startServer('embedded', { workerSlots: 2 });
    servers.push(s);
    const p = await projectWithUpload(s.url, 'slots', fitData(5_000, 3));
    const runs = [await startFit(s.url, p, 'a'), await startFit(s.url, p, 'b')];
    const db = s.built.services.db;
    // Both fits hold a slot at the same moment.
    await waitFor(async () => (await db.selectFrom('jobs').select('id').where('state', '=', 'running').execute()).length === 2, 20_000);
    for (const r of runs) expect((await settledRun(s.url, p.token, r)).state).toBe('Finished');
  });

  it("one client's queue of slow jobs does not hold another client's first upload behind it", async () => {
    const s = await startServer('embedded', { workerSlots: 1 });
    servers.push(s);
    const A = await projectWithUpload(s.url, 'busy', fitData(5_000, 3));
    const B = await signup(s.url, 'quiet');
    const bProject = (await call(s.url, 'bucketCreate', { token: B.token, body: { client: B.client, name: 'Quiet' } })).body.bucket.stamp;
    const fits: string[] = [];
    for (let i = 0; i < 6; i++) fits.push(await startFit(s.url, A, `fit${i}`));
    await waitFor(async () => (await runState(s.url, A.token, fits[0])).state === 'Processing', 20_000);
    // Client B's small upload is queued behind A's fits, yet goes next.
    const t0 = Date.now();
    const { upload } = await uploadFiles(s.url, B.token, bProject, [{ name: 'small.json', bytes: fitData(50, 3) }]);
    const waited = Date.now() - t0;
    expect(upload.flight).toBe('Ready');
    const states = await Promise.all(fits.map(async (f) => (await runState(s.url, A.token, f)).state));
    expect(
      states.filter((x) => x === 'Pending' || x === 'Processing').length,
      `B waited ${waited} ms; A's fits: ${states.join(' ')}`,
    ).toBeGreaterThanOrEqual(3);
    for (const f of fits) expect((await settledRun(s.url, A.token, f)).state).toBe('Finished');
  });

  it("hostile uploads settle within their limits with a sentence, while another client's small upload reaches Ready promptly", async () => {
    const analyzeS = 5;
    const s = await startServer('embedded', { workerSlots: 2, jobTimeoutS: limits({ analyze: analyzeS }), jobMemoryMb: 512 });
    servers.push(s);
    const A = await signup(s.url, 'hostile');
    const project = (await call(s.url, 'bucketCreate', { token: A.token, body: { client: A.client, name: 'Hostile' } })).body.bucket.stamp;
    const B = await signup(s.url, 'bystander');
    const bProject = (await call(s.url, 'bucketCreate', { token: B.token, body: { client: B.client, name: 'Bystander' } })).body.bucket
      .stamp;
    // The three: a zip listing one member many times, a .pt that inflates to 0.9 GB, a memo-aliased pickle.
    const hostile = hostileCorpus().filter((h) => ['repeated.npz', 'bomb.pt', 'aliased.pkl'].includes(h.fileName));
    expect(hostile).toHaveLength(3);
    const sent = await Promise.all(
      hostile.map(async (h) => ({ h, upload: await sendFiles(s.url, A.token, project, [{ name: h.fileName, bytes: h.bytes }]) })),
    );

    const t0 = Date.now();
    const { upload } = await uploadFiles(s.url, B.token, bProject, [{ name: 'small.json', bytes: fitData(50, 3) }]);
    const waited = Date.now() - t0;
    expect(upload.flight).toBe('Ready');
    // At worst B waits for one slot, i.e. one job's time limit (plus the machine's own latency).
    expect(waited).toBeLessThan(analyzeS * 1000 + 5000);

    for (const { h, upload: id } of sent) {
      const r = await waitFor(async () => {
        const list = (await call(s.url, 'rendList', { token: A.token, query: { bucket: project } })).body.rend.list as any[];
        const x = list.find((y) => y.stamp === id);
        return x && (x.flight === 'Ready' || x.flight === 'Failed') ? x : null;
      }, 60_000);
      const error = r.upload.list[0].error as string;
      // Refused by the parser with its fault, or stopped by the worker's limit with what to do.
      const overrun =
        /^The file (took longer than [\d.]+ s|needed more than \d+ MB of memory) to analyse\. Check that it is a valid \.\w+ file, or split it into smaller files\.$/;
      expect(r.flight, h.name).toBe('Failed');
      expect(h.fault.test(error) || overrun.test(error), `${h.name}: ${error}`).toBe(true);
    }
  });

  it('a fit reads only the bytes that were checked: a stored file changed since, fails the run with a sentence', async () => {
    const s = await startServer('embedded');
    servers.push(s);
    const p = await projectWithUpload(s.url, 'swap', fitData(200, 3));
    const file = join(s.dataDir, 'files', 'uploads', p.items[0]);
    const bytes = await readFile(file);
    await writeFile(file, Buffer.from(bytes.toString().replace(/\d/, (d) => String((Number(d) + 1) % 10))));
    const run = await startFit(s.url, p);
    expect(await settledRun(s.url, p.token, run)).toMatchObject({ state: 'Failed', message: CHANGED_MESSAGE });
  });

  it('a job still running at the shutdown deadline goes back to the queue, its attempt not counted, and finishes later', async () => {
    const s = await startServer('embedded', { shutdownS: 0 });
    servers.push(s);
    const p = await projectWithUpload(s.url, 'drain', fitData(5_000, 3));
    const run = await startFit(s.url, p);
    const db = s.built.services.db;
    await waitFor(async () => (await runState(s.url, p.token, run)).state === 'Processing', 20_000);
    await s.built.worker!.stop();
    expect(await db.selectFrom('jobs').select(['state', 'attempts', 'owner']).where('ref', '=', run).executeTakeFirstOrThrow()).toEqual({
      state: 'queued',
      attempts: 0,
      owner: null,
    });
    const next = new Worker({
      db,
      storage: s.built.services.storage,
      jobs: s.built.services.jobs,
      log: quiet,
      exclusive: true,
      ...workerSettings(s.config),
    });
    await next.start();
    try {
      expect(await settledRun(s.url, p.token, run)).toMatchObject({ state: 'Finished', message: '' });
      // The job's row is marked done just after its request is finished, in its own statement.
      const job = await waitFor(async () => {
        const row = await db.selectFrom('jobs').select(['state', 'attempts']).where('ref', '=', run).executeTakeFirstOrThrow();
        return row.state === 'running' ? null : row;
      }, 10_000);
      expect(job).toEqual({ state: 'done', attempts: 1 });
    } finally {
      await next.stop();
    }
  });
});

describe.each(await dbKinds())('fair claims on %s', (kind) => {
  let database: Database;
  let drop: (() => Promise<void>) | undefined;
  let dir: string;
  beforeAll(async () => {
    dir = await freshDataDir();
    const pgdb = kind === 'postgres' ? await createPgDatabase() : undefined;
    drop = pgdb?.drop;
    database = await openDatabase({ dataDir: dir, databaseUrl: pgdb?.url });
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
    await rm(dir, { recursive: true, force: true });
  });

  it('the client with the fewest running jobs goes first, then the oldest job; an expired lease is reclaimed at claim time', async () => {
    const db = database.db;
    const t = now();
    const job = (ref: string, client: string, state = 'queued', locked_until: number | null = null) =>
      newJobRow({
        kind: 'fit',
        ref,
        state,
        attempts: state === 'running' ? 1 : 0,
        run_after: t,
        locked_until,
        created_at: t,
        client,
        owner: state === 'running' ? 'w_gone' : null,
      });
    await db
      .insertInto('jobs')
      .values([job('a-running', 'A', 'running', t + 60), job('a1', 'A'), job('a2', 'A'), job('b1', 'B'), job('a3', 'A'), job('c1', 'C')])
      .execute();
    const w = new Worker({ db, storage: new LocalStorage(dir, new Secrets('s')), jobs: new JobQueue(), log: quiet, exclusive: false });
    const order: (string | undefined)[] = [];
    for (let i = 0; i < 5; i++) order.push((await w.claim())?.ref);
    // B and C have nothing running, A has one: B, then C; then A's three in order (A and B/C tie on running counts).
    expect(order.slice(0, 2)).toEqual(['b1', 'c1']);
    expect(order.slice(2)).toEqual(['a1', 'a2', 'a3']);
    expect(await w.claim()).toBeUndefined();

    // A worker died holding "a-running": once its lease is past, the next claim takes it back.
    await db
      .updateTable('jobs')
      .set({ locked_until: t - 1 })
      .where('ref', '=', 'a-running')
      .execute();
    const taken = await w.claim();
    expect(taken).toMatchObject({ ref: 'a-running', attempts: 2, owner: w.id, state: 'running' });
    await db.deleteFrom('jobs').execute();
  });

  it("the newcomers' slot takes only a job of a client with nothing running, and only when the other slots are full", async () => {
    const db = database.db;
    const t = now();
    const job = (ref: string, client: string) => newJobRow({ kind: 'fit', ref, run_after: t, created_at: t, client });
    await db
      .insertInto('jobs')
      .values([job('a1', 'A'), job('a2', 'A'), job('a3', 'A')])
      .execute();
    const w = new Worker({
      db,
      storage: new LocalStorage(dir, new Secrets('s')),
      jobs: new JobQueue(),
      log: quiet,
      exclusive: false,
      slots: 1,
    });
    // The one general slot is idle: the newcomers' slot leaves the work to it.
    expect(await w.claim(true)).toBeUndefined();
    // Busy now (a job of A running on the general slot, as runOnce counts it): A is not a newcomer, B is.
    expect(await w.claim()).toMatchObject({ ref: 'a1' });
    (w as unknown as { generalBusy: number }).generalBusy = 1;
    expect(await w.claim(true)).toBeUndefined();
    await db.insertInto('jobs').values(job('b1', 'B')).execute();
    expect(await w.claim(true)).toMatchObject({ ref: 'b1' });
    await db.deleteFrom('jobs').execute();
  });

  it('concurrent claimers never take the same job', async () => {
    const db = database.db;
    const t = now();
    await db
      .insertInto('jobs')
      .values(
        Array.from({ length: 12 }, (_, i) => newJobRow({ kind: 'fit', ref: `j${i}`, run_after: t, created_at: t, client: `c${i % 3}` })),
      )
      .execute();
    const workers = Array.from(
      { length: 4 },
      () => new Worker({ db, storage: new LocalStorage(dir, new Secrets('s')), jobs: new JobQueue(), log: quiet, exclusive: false }),
    );
    const got = (await Promise.all(workers.flatMap((w) => [w.claim(), w.claim(), w.claim(), w.claim()])))
      .filter(Boolean)
      .map((j) => j!.ref);
    expect(got.sort()).toEqual(Array.from({ length: 12 }, (_, i) => `j${i}`).sort());
    await db.deleteFrom('jobs').execute();
  });
});
