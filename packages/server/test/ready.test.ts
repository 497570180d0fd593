// Readiness names the part that fails: no worker heard from, or a process that has begun to shut down; the
// workers' own outcomes reach the metrics.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@portal/core';
import { call, fitData, signup, startServer, uploadFiles, type TestServer } from './harness';
import { WORKER_FORGET_S } from '../src/worker/worker';

describe('readiness and worker metrics', () => {
  let withWorker: TestServer;
  let apiOnly: TestServer;
  beforeAll(async () => {
    withWorker = await startServer('embedded');
    apiOnly = await startServer('embedded', { worker: false });
  });
  afterAll(async () => {
    await withWorker?.close();
    await apiOnly?.close();
  });

  it('is ready with a worker heartbeat; without one it says to start a worker', async () => {
    const ok = await call(withWorker.url, 'ready');
    expect(ok.status).toBe(200);
    expect(ok.body.checks).toEqual({ database: 'ok', storage: 'ok', worker: 'ok' });
    const none = await call(apiOnly.url, 'ready');
    expect(none.status).toBe(503);
    expect(none.body.checks.worker).toMatch(/^No worker has been seen in the last 30 seconds, so uploads and requests wait: start one/);
    expect(none.body.error).toMatchObject({ code: ERROR_CODES.notReady, message: expect.stringMatching(/^Not ready: worker: /) });
    // Liveness does not depend on workers.
    expect((await call(apiOnly.url, 'health')).status).toBe(200);
  });

  it("counts the worker's jobs by kind and outcome", async () => {
    const A = await signup(withWorker.url, 'metricsjobs');
    const project = (await call(withWorker.url, 'bucketCreate', { token: A.token, body: { client: A.client, name: 'Metrics' } })).body
      .bucket.stamp;
    const { upload } = await uploadFiles(withWorker.url, A.token, project, [{ name: 'a.json', bytes: fitData(20, 2) }]);
    expect(upload.flight).toBe('Ready');
    const text = await (await fetch(withWorker.metricsUrl!)).text();
    expect(text).toMatch(/^portal_jobs_total\{kind="analyze",outcome="done"\} [1-9]/m);
    expect(text).toMatch(/^portal_job_duration_seconds_count\{kind="analyze"\} [1-9]/m);
    // The job names the request that queued it, as the API's access line does (reqId).
    const jobs = await withWorker.built.services.db
      .selectFrom('jobs')
      .select(['kind', 'request_id'])
      .where('kind', '=', 'analyze')
      .execute();
    expect(jobs.length).toBeGreaterThan(0);
    for (const j of jobs) expect(j.request_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4/);
  });

  it("forgets dead workers' rows; the live ones stay", async () => {
    const db = withWorker.built.services.db;
    const t = Math.floor(Date.now() / 1000);
    const row = { host: 'gone', pid: 1, slots: 1, started_at: t - 7200 };
    await db
      .insertInto('workers')
      .values([
        { id: 'w_dead', ...row, seen_at: t - WORKER_FORGET_S - 1 },
        { id: 'w_late', ...row, seen_at: t - 60 },
      ])
      .execute();
    await withWorker.built.worker!.housekeep();
    const ids = (await db.selectFrom('workers').select('id').execute()).map((w) => w.id);
    expect(ids).not.toContain('w_dead');
    expect(ids).toContain('w_late');
    expect(ids).toContain(withWorker.built.worker!.id);
    await db.deleteFrom('workers').where('id', '=', 'w_late').execute();
  });

  it('counts failed storage operations by name', async () => {
    await expect(withWorker.built.services.storage.putFile('results/none.json', '/nonexistent/portal-file')).rejects.toThrow();
    const text = await (await fetch(withWorker.metricsUrl!)).text();
    expect(text).toMatch(/^portal_storage_errors_total\{op="putFile"\} 1$/m);
  });

  it('fails as soon as shutdown begins (while the worker still finishes its jobs)', async () => {
    const closing = withWorker.built.close();
    // Through the app itself: the listener closes once the worker has stopped.
    const r = await withWorker.built.app.inject({ method: 'GET', url: '/api/ready' });
    expect(r.statusCode).toBe(503);
    expect(r.json().checks.process).toBe('The server is shutting down.');
    await closing;
  });
});
