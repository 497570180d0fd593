// GET /metrics on METRICS_PORT: Prometheus text with calls counted by route pattern, the queue read from the database,
// the database pool and query times.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { JobQueue } from '../src/worker/queue';

/** The value of one sample line, e.g. sample(text, 'portal_queue_depth{kind="fit"}'). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('metrics', () => {
  let server: TestServer;
  let off: TestServer;

  beforeAll(async () => {
    server = await startServer('embedded', { worker: false });
    off = await startServer('embedded', { worker: false, metricsPort: null });
  });
  afterAll(async () => {
    await server?.close();
    await off?.close();
  });

  const scrape = async () => (await fetch(server.metricsUrl!)).text();

  it('counts calls by route pattern and status, never by raw URL', async () => {
    await fetch(new URL('/api/health', server.url));
    await fetch(new URL('/api/bucket/item?client=c_secret_id', server.url));
    const res = await fetch(server.metricsUrl!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(sample(text, 'portal_http_requests_total{call="/api/health",method="GET",status="200"}')).toBe(1);
    expect(sample(text, 'portal_http_requests_total{call="/api/bucket/item",method="GET",status="401"}')).toBe(1);
    expect(text).not.toContain('c_secret_id');
    expect(text).toMatch(/^portal_http_request_duration_seconds_bucket\{.*call="\/api\/health"/m);
    expect(text).toContain('portal_process_resident_memory_bytes');
  });

  it('reports queue depth and the oldest waiting job by kind from the database, queued mail included', async () => {
    const db = server.built.services.db;
    const jobs = new JobQueue();
    await jobs.enqueue(db, 'fit', 'n_1');
    await jobs.enqueue(db, 'fit', 'n_2');
    await jobs.enqueue(db, 'mail', 'm_1', { delayS: 15 });
    await db
      .updateTable('jobs')
      .set({ created_at: Math.floor(Date.now() / 1000) - 120 })
      .where('ref', '=', 'n_1')
      .execute();
    const text = await scrape();
    expect(sample(text, 'portal_queue_depth{kind="fit"}')).toBe(2);
    expect(sample(text, 'portal_queue_depth{kind="mail"}')).toBe(1);
    expect(sample(text, 'portal_queue_depth{kind="analyze"}')).toBe(0);
    expect(sample(text, 'portal_queue_oldest_age_seconds{kind="fit"}')).toBeGreaterThanOrEqual(120);
    expect(sample(text, 'portal_jobs_running{kind="shrink"}')).toBe(0);
    await db.deleteFrom('jobs').execute();
  });

  it('reports the database pool and query times', async () => {
    await fetch(new URL('/api/ready', server.url));
    const text = await scrape();
    expect(sample(text, 'portal_db_pool_max')).toBe(1);
    expect(sample(text, 'portal_db_pool_waiting')).toBe(0);
    expect(sample(text, 'portal_db_query_duration_seconds_count{outcome="ok"}')).toBeGreaterThan(0);
  });

  it('serves metrics only on METRICS_PORT, never on the public port; METRICS_PORT=off serves none', async () => {
    expect((await fetch(new URL('/metrics', server.url))).status).toBe(404);
    expect(new URL(server.metricsUrl!).hostname).toBe('127.0.0.1');
    expect(new URL(server.metricsUrl!).port).not.toBe(new URL(server.url).port);
    expect((await fetch(new URL('/other', server.metricsUrl!))).status).toBe(404);
    expect(off.metricsUrl).toBeNull();
    expect((await fetch(new URL('/metrics', off.url))).status).toBe(404);
  });
});
