// GET /metrics: Prometheus text with calls counted by route pattern and the queue read from the database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { startServer, type TestServer } from './harness';
import { JobQueue } from '../src/worker/queue';

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** The value of one sample line, e.g. sample(text, 'portal_queue_depth{kind="fit"}'). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('metrics', () => {
  let server: TestServer;
  let separate: TestServer;
  let metricsPort: number;

  beforeAll(async () => {
    server = await startServer('embedded', { worker: false });
    metricsPort = await freePort();
    separate = await startServer('embedded', { worker: false, metricsPort });
  });
  afterAll(async () => {
    await server?.close();
    await separate?.close();
  });

  it('counts calls by route pattern and status, never by raw URL', async () => {
    await fetch(new URL('/api/health', server.url));
    await fetch(new URL('/api/bucket/item?client=c_secret_id', server.url));
    const res = await fetch(new URL('/metrics', server.url));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(sample(text, 'portal_http_requests_total{call="/api/health",method="GET",status="200"}')).toBe(1);
    expect(sample(text, 'portal_http_requests_total{call="/api/bucket/item",method="GET",status="401"}')).toBe(1);
    expect(text).not.toContain('c_secret_id');
    expect(text).toMatch(/^portal_http_request_duration_seconds_bucket\{.*call="\/api\/health"/m);
    expect(text).toContain('portal_process_resident_memory_bytes');
  });

  it('reports queue depth and the oldest waiting job by kind from the database', async () => {
    const db = server.built.services.db;
    const jobs = new JobQueue();
    await jobs.enqueue(db, 'fit', 'n_1');
    await jobs.enqueue(db, 'fit', 'n_2');
    await db
      .updateTable('jobs')
      .set({ created_at: Math.floor(Date.now() / 1000) - 120 })
      .where('ref', '=', 'n_1')
      .execute();
    const text = await (await fetch(new URL('/metrics', server.url))).text();
    expect(sample(text, 'portal_queue_depth{kind="fit"}')).toBe(2);
    expect(sample(text, 'portal_queue_depth{kind="analyze"}')).toBe(0);
    expect(sample(text, 'portal_queue_oldest_age_seconds{kind="fit"}')).toBeGreaterThanOrEqual(120);
    expect(sample(text, 'portal_jobs_running{kind="shrink"}')).toBe(0);
    await db.deleteFrom('jobs').execute();
  });

  it('with METRICS_PORT, serves metrics only on that port', async () => {
    await fetch(new URL('/api/health', separate.url));
    expect((await fetch(new URL('/metrics', separate.url))).status).toBe(404);
    const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(res.status).toBe(200);
    expect(sample(await res.text(), 'portal_http_requests_total{call="/api/health",method="GET",status="200"}')).toBe(1);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/other`)).status).toBe(404);
  });
});
