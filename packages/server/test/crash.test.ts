// Crash safety of the built server: kill -9 during a PUT and during analysis, restart on the same DATA_DIR,
// and nothing partial is visible and nothing stays in Preparing or Processing.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import {
  call,
  createPgDatabase,
  dbKinds,
  finalRun,
  fitData,
  fitThroughApi,
  freshDataDir,
  generateThroughApi,
  serverRoot,
  sha256,
  signup,
  uploadFiles,
  waitFor,
} from './harness';
import { openDatabase } from '../src/db/index';
import pg from 'pg';
import { CRASH_MESSAGE } from '../src/worker/worker';

/** The signing key the spawned servers share (32 bytes at least, as the server requires). */
const CRASH_SECRET = 'crash-test-secret-of-at-least-32-bytes';

interface Proc {
  child: ChildProcess;
  url: string;
}

function start(
  dataDir: string,
  env: Record<string, string> = {},
  args: string[] = [],
  ready = /Portal running at (http:\/\/\S+)/,
): Promise<Proc> {
  const child = spawn(process.execPath, [join(serverRoot, 'dist/main.js'), ...args], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      JWT_SECRET: CRASH_SECRET,
      LOG_LEVEL: 'warn',
      METRICS_PORT: '0',
      PORTAL_DRAIN_S: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      // Not left running for the rest of the suite.
      child.kill('SIGKILL');
      reject(new Error(`server did not start:\n${out}`));
    }, 30_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = ready.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1] ?? '' });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
  });
}

function kill9(p: Proc): Promise<void> {
  return new Promise((resolve) => {
    if (p.child.exitCode !== null || p.child.signalCode !== null) return resolve();
    p.child.once('exit', () => resolve());
    p.child.kill('SIGKILL');
  });
}

/** A user with a project holding the plan's largest table, and a fit request on it: training that takes a while. */
async function startTraining(base: string, name: string) {
  const A = await signup(base, name);
  const project = (await call(base, 'bucketCreate', { token: A.token, body: { client: A.client, name } })).body.bucket.stamp;
  const { upload } = await uploadFiles(base, A.token, project, [{ name: 'big.json', bytes: fitData(5000, 3) }]);
  const fit = await fitThroughApi(base, A.token, { project, upload: upload.stamp, name: 'fit' }, { inputs: 3, outputs: 5 });
  return { A, project, fit: fit.stamp as string };
}

/** How long a restarted server may take to settle its items: generous, since other test files share the machine. */
const SETTLE_MS = 90_000;

describe('crash safety of the built server', { timeout: 240_000 }, () => {
  let dataDir: string;
  let running: Proc | null = null;

  beforeAll(async () => {
    const build = spawnSync(process.execPath, ['build.mjs'], { cwd: serverRoot, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`build failed: ${build.stderr}`);
    dataDir = await freshDataDir();
  });
  // Each test starts its own server on the shared data folder: one left running by a failed test would hold the
  // embedded database's lock and fail every later test for the wrong reason.
  afterEach(async () => {
    if (running) await kill9(running);
    running = null;
  });
  afterAll(async () => {
    if (running) await kill9(running);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('kill -9 during a PUT: after restart the item is still Pending, no partial file anywhere, and the upload can be sent again', async () => {
    running = await start(dataDir);
    const A = await signup(running.url, 'crash');
    const project = (await call(running.url, 'bucketCreate', { token: A.token, body: { client: A.client, name: 'Crash' } })).body.bucket
      .stamp;
    const upload = (await call(running.url, 'rendCreate', { token: A.token, body: { bucket: project, name: 'big' } })).body.rend.stamp;
    const data = Buffer.alloc(900_000, '1 2 3\n');
    const reg = await call(running.url, 'uploadRegister', {
      token: A.token,
      body: { rend: upload, name: 'big.txt', file: { name: 'big.txt', size: data.length, checksum: sha256(data) } },
    });
    expect(reg.status).toBe(200);
    const fileId = reg.body.upload.stamp as string;

    // Send half the bytes, let the server write them, then kill it.
    const url = new URL(reg.body.upload.url);
    const req = request(url, { method: 'PUT', headers: { 'content-length': data.length } });
    req.on('error', () => {});
    req.write(data.subarray(0, data.length / 2));
    await vi.waitFor(
      async () => expect(existsSync(join(dataDir, 'files-tmp')) && (await readdir(join(dataDir, 'files-tmp'))).length).toBe(1),
      {
        timeout: 10_000,
      },
    );
    await kill9(running);
    req.destroy();

    running = await start(dataDir);
    expect(await readdir(join(dataDir, 'files-tmp'))).toEqual([]);
    expect(existsSync(join(dataDir, 'files', 'uploads', fileId))).toBe(false);
    const list = (await call(running.url, 'rendList', { token: A.token, query: { bucket: project } })).body.rend.list;
    expect(list[0].upload.list[0]).toMatchObject({ stamp: fileId, state: 'Pending' });

    const put = await fetch(reg.body.upload.url.replace(url.origin, running.url), { method: 'PUT', body: new Uint8Array(data) });
    expect(put.status).toBe(200);
    expect((await call(running.url, 'uploadFinish', { token: A.token, body: { upload: fileId } })).status).toBe(200);
    await call(running.url, 'rendFinish', { token: A.token, body: { rend: upload } });
    const settled = await waitFor(async () => {
      const r = (await call(running!.url, 'rendList', { token: A.token, query: { bucket: project } })).body.rend.list[0];
      return r.flight === 'Ready' || r.flight === 'Failed' ? r : null;
    }, SETTLE_MS);
    expect(settled.upload.list[0].state).not.toMatch(/Pending|Preparing/);
    await kill9(running);
    running = null;
  });

  it('kill -9 during analysis: the job is retried once after restart; interrupted twice, it fails with a message', async () => {
    // First run: no worker, so finishing leaves the items in Preparing with their jobs queued; then a hard kill.
    running = await start(dataDir, { PORTAL_WORKER: '0' });
    const A = await signup(running.url, 'crash2');
    const project = (await call(running.url, 'bucketCreate', { token: A.token, body: { client: A.client, name: 'Crash' } })).body.bucket
      .stamp;
    const uploads: string[] = [];
    const items: string[] = [];
    for (const name of ['retried.json', 'twice.json']) {
      const upload = (await call(running.url, 'rendCreate', { token: A.token, body: { bucket: project, name } })).body.rend.stamp;
      const data = fitData(50, 3);
      const reg = await call(running.url, 'uploadRegister', {
        token: A.token,
        body: { rend: upload, name, file: { name, size: data.length, checksum: sha256(data) } },
      });
      expect((await fetch(reg.body.upload.url, { method: 'PUT', body: new Uint8Array(data) })).status).toBe(200);
      const fin = await call(running.url, 'uploadFinish', { token: A.token, body: { upload: reg.body.upload.stamp } });
      expect(fin.body.upload.state).toBe('Preparing');
      await call(running.url, 'rendFinish', { token: A.token, body: { rend: upload } });
      uploads.push(upload);
      items.push(reg.body.upload.stamp);
    }
    await kill9(running);

    // The state a worker leaves when killed mid-analysis: its job claimed ("running"), once for the first
    // item, and for the second item a job that had already been retried once before.
    const db = await openDatabase({ dataDir });
    await db.db.updateTable('jobs').set({ state: 'running', attempts: 1, locked_until: 0 }).where('ref', '=', items[0]).execute();
    await db.db.updateTable('jobs').set({ state: 'running', attempts: 2, locked_until: 0 }).where('ref', '=', items[1]).execute();
    await db.close();

    running = await start(dataDir);
    const flights = await waitFor(async () => {
      const list = (await call(running!.url, 'rendList', { token: A.token, query: { bucket: project } })).body.rend.list as any[];
      const byId = uploads.map((s) => list.find((r) => r.stamp === s));
      return byId.every((r) => r.flight === 'Ready' || r.flight === 'Failed') ? byId : null;
    }, SETTLE_MS);
    expect(flights[0]).toMatchObject({ flight: 'Ready' });
    expect(flights[0].upload.list[0]).toMatchObject({ state: 'Finished', meta: { proc: 1, rows: 50 } });
    expect(flights[1]).toMatchObject({ flight: 'Failed' });
    expect(flights[1].upload.list[0]).toMatchObject({ state: 'Failed', error: CRASH_MESSAGE });

    // A real kill while the worker is busy: whatever moment it lands, a restart settles every item.
    const upload = (await call(running.url, 'rendCreate', { token: A.token, body: { bucket: project, name: 'live' } })).body.rend.stamp;
    const data = fitData(4000, 3);
    const reg = await call(running.url, 'uploadRegister', {
      token: A.token,
      body: { rend: upload, name: 'live.json', file: { name: 'live.json', size: data.length, checksum: sha256(data) } },
    });
    await fetch(reg.body.upload.url, { method: 'PUT', body: new Uint8Array(data) });
    await call(running.url, 'uploadFinish', { token: A.token, body: { upload: reg.body.upload.stamp } });
    await call(running.url, 'rendFinish', { token: A.token, body: { rend: upload } });
    await kill9(running);
    running = await start(dataDir);
    const live = await waitFor(async () => {
      const r = ((await call(running!.url, 'rendList', { token: A.token, query: { bucket: project } })).body.rend.list as any[]).find(
        (x) => x.stamp === upload,
      );
      return r.flight === 'Ready' || r.flight === 'Failed' ? r : null;
    }, SETTLE_MS);
    expect(live.flight).toBe('Ready');
    await kill9(running);
    running = null;
  });

  it('kill -9 while a request is Processing: after restart it runs again and finishes', async () => {
    running = await start(dataDir);
    const { A, project, fit } = await startTraining(running.url, 'crash3');
    const state = async () =>
      (await call(running!.url, 'runStatus', { token: A.token, query: { run: fit } })).body.run.record.state as string;
    await waitFor(async () => (await state()) === 'Processing', 20_000);
    await kill9(running);

    running = await start(dataDir);
    const done = await waitFor(async () => {
      const s = await state();
      return s === 'Finished' || s === 'Failed' ? s : null;
    });
    expect(done).toBe('Finished');
    const models = (await call(running.url, 'clientModelList', { token: A.token, query: { bucket: project } })).body.model.list;
    expect(models[0].state).toBe('Finished');
    await kill9(running);
    running = null;
  });

  it('the built CLI: admin commands on the same DATA_DIR, handed to the running server while it holds the embedded database', async () => {
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [join(serverRoot, 'dist/main.js'), ...args], {
        env: { ...process.env, DATA_DIR: dataDir, JWT_SECRET: CRASH_SECRET },
        encoding: 'utf8',
      });
    const clients = cli('admin', 'clients', '--json');
    expect(clients.status).toBe(0);
    const list = JSON.parse(clients.stdout) as Array<{ id: string; name: string; plan: string }>;
    expect(list.length).toBeGreaterThanOrEqual(2);
    const set = cli('admin', 'set-plan', list[0].name, 'Enterprise');
    expect(set.status).toBe(0);
    expect(set.stdout).toContain('Enterprise');

    // While a server holds the embedded database, the CLI hands the command to it.
    running = await start(dataDir);
    const busy = cli('admin', 'users');
    expect(busy.status).toBe(0);
    expect(busy.stdout).toMatch(/EMAIL/);
    const switched = cli('admin', 'set-plan', list[0].id, 'Individual');
    expect(switched.status).toBe(0);
    const clientsNow = JSON.parse(cli('admin', 'clients', '--json').stdout) as Array<{ id: string; plan: string }>;
    expect(clientsNow.find((c) => c.id === list[0].id)?.plan).toBe('Individual');
    const refused = cli('admin', 'set-choice', list[0].id, 'Moon');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('Cloud, Premise, CloudPremise');
    const forged = await fetch(`${running.url}/api/admin/command`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-portal-admin': 'guess' },
      body: JSON.stringify({ command: 'users', args: [] }),
    });
    expect(forged.status).toBe(401);
    await kill9(running);
    running = null;
  });
});

const kinds = await dbKinds();

describe.runIf(kinds.includes('postgres'))('scale-out on PostgreSQL: API processes without a worker, and separate worker processes', () => {
  const procs: Proc[] = [];
  let drop: (() => Promise<void>) | null = null;
  let dirs: string[] = [];

  afterAll(async () => {
    for (const p of procs) await kill9(p);
    await drop?.();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('two API processes and two workers share one database: every job runs exactly once', async () => {
    const db = await createPgDatabase();
    drop = db.drop;
    dirs = [await freshDataDir()];
    // Files live in a shared folder here (one machine); across machines STORAGE_URL points all of them at one bucket.
    const env = { DATABASE_URL: db.url, PORTAL_WORKER: '0' };
    const shared = dirs[0];
    const api1 = await start(shared, env);
    const api2 = await start(shared, env);
    procs.push(api1, api2);
    procs.push(await start(shared, { DATABASE_URL: db.url }, ['worker'], /Worker running/));
    procs.push(await start(shared, { DATABASE_URL: db.url }, ['worker'], /Worker running/));

    const A = await signup(api1.url, 'scale');
    const project = (await call(api2.url, 'bucketCreate', { token: A.token, body: { client: A.client, name: 'Scale' } })).body.bucket.stamp;
    const files = Array.from({ length: 6 }, (_, i) => ({ name: `part${i}.json`, bytes: fitData(200 + i, 3) }));
    const { upload } = await uploadFiles(api1.url, A.token, project, files);
    expect(upload.flight).toBe('Ready');
    // The second API process sees the same state at once (nothing lives in one process's memory).
    const seen = (await call(api2.url, 'rendList', { token: A.token, query: { bucket: project } })).body.rend.list[0];
    expect(seen.upload.list.map((u: { state: string }) => u.state)).toEqual(Array(6).fill('Finished'));

    // Training and generating run in the built server's processing threads.
    const fit = (await fitThroughApi(api1.url, A.token, { project, upload: upload.stamp, name: 'fit' }, { inputs: 3, outputs: 4 })).stamp;
    const gen = (await generateThroughApi(api2.url, A.token, { project, upload: upload.stamp, fit, name: 'gen' })).stamp;
    const done = await finalRun(api1.url, A.token, gen);
    expect(done.record).toMatchObject({ state: 'Finished', message: '' });
    const embeddings = await (await fetch(done.url!)).json();
    expect(embeddings).toBeTruthy();

    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    // A job's row is marked done just after its request is finished, in its own statement.
    const jobs = await waitFor(async () => {
      const r = await c.query<{ state: string; attempts: number }>('select state, attempts from jobs');
      return r.rows.some((j) => j.state === 'running') ? null : r.rows;
    }, 10_000);
    await c.end();
    expect(jobs).toHaveLength(8);
    expect(jobs.every((j) => j.state === 'done' && j.attempts === 1)).toBe(true);
  });

  it('kill -9 of a worker in the middle of training: another worker takes the job over once its 8 s lease runs out', async () => {
    const db = await createPgDatabase();
    const dir = await freshDataDir();
    dirs.push(dir);
    const env = { DATABASE_URL: db.url, PORTAL_WORKER_SLOTS: '1' };
    const api = await start(dir, { ...env, PORTAL_WORKER: '0' });
    procs.push(api);
    const ready = /Worker running.*\(worker (w_[\w-]+)\)/;
    const one = await start(dir, env, ['worker'], ready);
    const two = await start(dir, env, ['worker'], ready);
    procs.push(one, two);

    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      const { A, fit } = await startTraining(api.url, 'lease');
      // Kill whichever worker claimed the training job, the moment it has claimed it.
      const owner = await waitFor(
        async () => (await c.query<{ owner: string }>(`select owner from jobs where ref = $1 and state = 'running'`, [fit])).rows[0]?.owner,
        20_000,
      );
      const [doomed, survivor] = owner === one.url ? [one, two] : [two, one];
      await kill9(doomed);
      const killedAt = Date.now();
      const mid = (await call(api.url, 'runStatus', { token: A.token, query: { run: fit } })).body.run.record.state;
      expect(['Pending', 'Processing']).toContain(mid);

      await waitFor(
        async () =>
          (await c.query(`select 1 from jobs where ref = $1 and owner = $2 or ref = $1 and state = 'done'`, [fit, survivor.url])).rowCount,
        20_000,
      );
      const takeoverMs = Date.now() - killedAt;
      // The lease (8 s, the default) is kept in whole seconds and runs out after its last second: a job claimed just
      // after a second began is free up to 9 s later; the survivor asks every 500 ms. Two seconds more for a machine
      // busy with other test files: well under the 20 s a second lease would take.
      expect(takeoverMs).toBeLessThan(9_000 + 500 + 2_000);
      const done = await waitFor(async () => {
        const r = (await call(api.url, 'runStatus', { token: A.token, query: { run: fit } })).body.run.record;
        return ['Finished', 'Failed'].includes(r.state) ? r : null;
      }, 30_000);
      expect(done).toMatchObject({ state: 'Finished', message: '' });
      // The request is finished inside the job; the job's own row is marked done just after, in its own statement.
      const job = await waitFor(async () => {
        const r = await c.query<{ state: string; attempts: number }>('select state, attempts from jobs where ref = $1', [fit]);
        return r.rows[0]?.state === 'running' ? null : r.rows[0];
      }, 10_000);
      expect(job).toEqual({ state: 'done', attempts: 2 });
    } finally {
      await c.end();
      await db.drop().catch((err) => console.error('could not drop the test database', err));
    }
  });

  it('SIGTERM to a worker holding a job past the shutdown deadline: the job goes back to the queue and another worker finishes it', async () => {
    const db = await createPgDatabase();
    const dir = await freshDataDir();
    dirs.push(dir);
    const env = { DATABASE_URL: db.url, PORTAL_WORKER_SLOTS: '1', PORTAL_SHUTDOWN_S: '0' };
    const api = await start(dir, { ...env, PORTAL_WORKER: '0' });
    procs.push(api);
    const leaving = await start(dir, env, ['worker'], /Worker running/);
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      const { A, fit } = await startTraining(api.url, 'drain');
      await waitFor(async () => (await c.query(`select 1 from jobs where ref = $1 and state = 'running'`, [fit])).rowCount, 20_000);
      const exited = new Promise<number | null>((resolve) => leaving.child.once('exit', (code) => resolve(code)));
      leaving.child.kill('SIGTERM');
      expect(await exited).toBe(0);
      const job = (
        await c.query<{ state: string; attempts: number; owner: string | null }>('select state, attempts, owner from jobs where ref = $1', [
          fit,
        ])
      ).rows[0];
      // Either it finished just before the signal, or it is back in the queue with its attempt not counted.
      expect([
        { state: 'queued', attempts: 0, owner: null },
        { state: 'done', attempts: 1, owner: null },
      ]).toContainEqual(job);

      procs.push(await start(dir, env, ['worker'], /Worker running/));
      const done = await waitFor(async () => {
        const r = (await call(api.url, 'runStatus', { token: A.token, query: { run: fit } })).body.run.record;
        return ['Finished', 'Failed'].includes(r.state) ? r : null;
      }, 30_000);
      expect(done).toMatchObject({ state: 'Finished', message: '' });
      expect((await c.query('select attempts from jobs where ref = $1', [fit])).rows[0]).toEqual({ attempts: 1 });
    } finally {
      await c.end();
      await db.drop().catch((err) => console.error('could not drop the test database', err));
    }
  });
});
