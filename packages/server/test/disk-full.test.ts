// A full disk, for real: DATA_DIR on a small tmpfs filled up by another file. An upload then answers 507 with the
// sentence that names storage (not "interrupted", not a hang), the refusal is logged and counted, readiness says
// the disk is full until space is freed, and the same link takes the file once it is. On the embedded database the
// database's own files fill too: its writes (projects, renames, uploads, requests) answer 507 the same way, and a
// job of the worker that meets the full disk waits and is taken again. Needs the right to mount a tmpfs (root):
// skipped with a notice otherwise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ERROR_CODES, MESSAGES } from '@portal/core';
import { call, dbKinds, fitData, freshDataDir, signup, startServer, sha256, uploadFiles, waitFor, type TestServer } from './harness';
import { Worker, workerSettings } from '../src/worker/worker';

const mountPoint = mkdtempSync(join(tmpdir(), 'portal-full-'));
const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', mountPoint]).status === 0;
if (!mounted) console.warn('\n*** Cannot mount a tmpfs here (not root): the full-disk test is SKIPPED. ***\n');
const pg = (await dbKinds()).includes('postgres');

describe.skipIf(!mounted || !pg)('a full disk (DATA_DIR on a small tmpfs)', () => {
  let srv: TestServer;
  const filler = join(mountPoint, 'filler');

  beforeAll(async () => {
    const dataDir = join(mountPoint, 'data');
    mkdirSync(dataDir);
    srv = await startServer('postgres', { dataDir });
  }, 60_000);
  afterAll(async () => {
    await srv?.close();
  });

  const fill = () => {
    // Leaves less room than the upload below needs (dd stops at the end of the disk, which is the point).
    spawnSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=1M', 'count=64'], { stdio: 'ignore' });
  };

  it('answers 507 naming storage, counts and logs it, fails readiness until space is freed, then takes the file', async () => {
    const A = await signup(srv.url, 'full');
    const project = (await call(srv.url, 'bucketCreate', { token: A.token, body: { client: A.client, name: 'Full' } })).body.bucket.stamp;
    const upload = (await call(srv.url, 'rendCreate', { token: A.token, body: { bucket: project, name: 'big.json' } })).body.rend.stamp;
    const bytes = Buffer.from(JSON.stringify(Array.from({ length: 30_000 }, (_, i) => [i, i % 7]))); // about 270 kB
    const reg = await call(srv.url, 'uploadRegister', {
      token: A.token,
      body: { rend: upload, name: 'big.json', file: { name: 'big.json', size: bytes.length, checksum: sha256(bytes) } },
    });
    expect(reg.status).toBe(200);
    const put = () => fetch(reg.body.upload.url as string, { method: 'PUT', body: bytes, signal: AbortSignal.timeout(15_000) });

    fill();
    const refused = await put();
    expect(refused.status).toBe(507);
    expect(await refused.json()).toEqual({ error: { code: ERROR_CODES.storageFull, message: MESSAGES.storageFull } });
    const ready = await fetch(`${srv.url}/api/ready`);
    expect(ready.status).toBe(503);
    expect((await ready.json()).checks.disk).toMatch(
      /^The disk of DATA_DIR .* is full \([\d.]+ MB free\): writes are refused until disk space is freed\.$/,
    );
    const metrics = await (await fetch(srv.metricsUrl!)).text();
    expect(metrics).toMatch(/portal_disk_full_total\{part="storage"\} 1/);
    expect(metrics).toMatch(/portal_disk_size_bytes 2\d{7}/);
    expect(metrics).toMatch(/portal_disk_free_bytes \d+/);

    await rm(filler);
    expect((await fetch(`${srv.url}/api/ready`)).status).toBe(200);
    const taken = await put();
    expect(taken.status).toBe(200);
  }, 60_000);
});

describe.skipIf(!mounted)('a full disk on the embedded database (DATA_DIR and the database on a small tmpfs)', () => {
  let srv: TestServer;
  const disk = join(mountPoint, 'embedded');
  const filler = join(disk, 'filler');
  const FULL = { error: { code: ERROR_CODES.storageFull, message: MESSAGES.storageFull } };

  beforeAll(async () => {
    // Big enough for the migrated database (about 40 MB) and the files below; the filler takes the rest.
    mkdirSync(disk);
    spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=96m', 'tmpfs', disk]);
    const dataDir = join(disk, 'data');
    mkdirSync(dataDir);
    const fresh = await freshDataDir();
    cpSync(join(fresh, 'db'), join(dataDir, 'db'), { recursive: true });
    rmSync(fresh, { recursive: true, force: true });
    srv = await startServer('embedded', { dataDir });
  }, 120_000);
  afterAll(async () => {
    await srv?.close();
    spawnSync('umount', [disk]);
  });

  /** 200, or 507 with the sentence that names storage: never 500, never a 400 that blames the input. */
  const savedOrFull = (r: { status: number; body: unknown }, what: string) => {
    if (r.status !== 200) expect({ what, status: r.status, body: r.body }).toEqual({ what, status: 507, body: FULL });
    return r.status;
  };

  it('answers 507 on every write, counts and logs it, fails readiness, lets jobs wait, and recovers when space is freed', async () => {
    const A = await signup(srv.url, 'dbfull');
    const project = (await call(srv.url, 'bucketCreate', { token: A.token, body: { client: A.client, name: 'Full' } })).body.bucket
      .stamp as string;
    const { upload } = await uploadFiles(srv.url, A.token, project, [{ name: 'fit.json', bytes: fitData(200, 3) }]);
    expect(upload.flight).toBe('Ready');
    // A request queued while no worker runs: the worker below meets the full disk when it works on it.
    await srv.built.worker!.stop();
    const param = { explainability: false, input_column_size: 3, output_column_size: 5, task_target_size: 1, task: 'regression' };
    const pile = (await call(srv.url, 'pileCreate', { token: A.token, body: { bucket: project, variety: 'FitModel', param } })).body.pile
      .stamp;
    const queued = await call(srv.url, 'runCreate', {
      token: A.token,
      body: { bucket: project, function: 'fit', rend: upload.stamp, pile, name: 'Fit' },
    });
    expect(queued.status).toBe(200);
    const run = queued.body.run.stamp as string;

    spawnSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=1M', 'count=200'], { stdio: 'ignore' });
    // Each kind of write until the database needs a page it cannot have: every answer is saved or 507, never 500.
    const statuses: number[] = [];
    for (let i = 0; i < 40 && !statuses.includes(507); i++) {
      const made = await call(srv.url, 'bucketCreate', { token: A.token, body: { client: A.client, name: `Project ${i}` } });
      statuses.push(savedOrFull(made, 'project'));
      const renamed = await call(srv.url, 'bucketRename', { token: A.token, body: { bucket: project, name: `Full ${i}` } });
      statuses.push(savedOrFull(renamed, 'rename'));
      const newUpload = await call(srv.url, 'rendCreate', { token: A.token, body: { bucket: project, name: `more ${i}.json` } });
      statuses.push(savedOrFull(newUpload, 'upload'));
      const request = await call(srv.url, 'runCreate', {
        token: A.token,
        body: { bucket: project, function: 'fit', rend: upload.stamp, pile, name: `Fit ${i}` },
      });
      statuses.push(savedOrFull(request, 'request'));
    }
    expect(statuses).toContain(507);

    const ready = await fetch(`${srv.url}/api/ready`);
    expect(ready.status).toBe(503);
    expect((await ready.json()).checks.disk).toMatch(
      /^The disk of DATA_DIR .* is full \([\d.]+ MB free\): writes are refused until disk space is freed\.$/,
    );
    expect(await (await fetch(srv.metricsUrl!)).text()).toMatch(/portal_disk_full_total\{part="database"\} [1-9]/);

    // The worker: the fit cannot store its result (or even say it started), so the job waits and is taken again.
    const lines: string[] = [];
    const log = { info: (m: string) => lines.push(m), error: (_o: unknown, m?: string) => lines.push(m ?? '') };
    const worker = new Worker({
      db: srv.built.services.db,
      storage: srv.built.services.storage,
      jobs: srv.built.services.jobs,
      log,
      exclusive: true,
      ...workerSettings(srv.config),
      pollMs: 200,
      disk: srv.built.services.disk,
      diskWaitS: 1,
    });
    await worker.start();
    try {
      await waitFor(async () => lines.some((l) => /^Job fit \S+ waits 1 s for disk space$/.test(l)), 60_000);
      expect(lines.filter((l) => / failed$/.test(l))).toEqual([]);
      const waiting = await call(srv.url, 'runStatus', { token: A.token, query: { run } });
      expect(waiting.body.run.record.state).not.toBe('Failed');

      // Space again: readiness comes back, writes are taken, the request finishes.
      await rm(filler);
      expect((await fetch(`${srv.url}/api/ready`)).status).toBe(200);
      expect((await call(srv.url, 'bucketCreate', { token: A.token, body: { client: A.client, name: 'After' } })).status).toBe(200);
      const done = await waitFor(async () => {
        const r = (await call(srv.url, 'runStatus', { token: A.token, query: { run } })).body.run.record;
        return r.state === 'Finished' || r.state === 'Failed' ? r : null;
      }, 90_000);
      expect(done).toMatchObject({ state: 'Finished' });
    } finally {
      await worker.stop();
    }
  }, 240_000);
});

afterAll(() => {
  if (mounted) spawnSync('umount', [mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});
