// Prometheus metrics of one process: API calls, the job queue as the database holds it, job outcomes, storage and mail.
import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { DB } from './db/schema';

export const METRICS_PATH = '/metrics';

/** What the worker records. */
export type JobMetrics = Pick<Metrics, 'jobs' | 'jobSeconds' | 'leaseTakeovers'>;

/**
 * One registry per app (tests run several apps in one process, and prom-client's global registry would mix them).
 * Counters describe this process; the queue gauges are read from the database at each scrape, so every process
 * reports the same queue and an operator may scrape any of them.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: 'portal_http_requests_total',
    help: 'API requests by call (route pattern), method and status',
    labelNames: ['call', 'method', 'status'] as const,
    registers: [this.registry],
  });
  readonly requestSeconds = new Histogram({
    name: 'portal_http_request_duration_seconds',
    help: 'API request durations by call and method',
    labelNames: ['call', 'method'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly jobs = new Counter({
    name: 'portal_jobs_total',
    help: 'Jobs settled by this process, by kind and outcome (done, failed, overrun, requeued, waiting)',
    labelNames: ['kind', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly jobSeconds = new Histogram({
    name: 'portal_job_duration_seconds',
    help: 'Time a job ran in this process, by kind',
    labelNames: ['kind'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900],
    registers: [this.registry],
  });
  readonly leaseTakeovers = new Counter({
    name: 'portal_job_lease_takeovers_total',
    help: 'Jobs this process took back from a worker whose lease ran out',
    registers: [this.registry],
  });
  readonly storageErrors = new Counter({
    name: 'portal_storage_errors_total',
    help: 'Storage operations that failed, by operation',
    labelNames: ['op'] as const,
    registers: [this.registry],
  });
  readonly mailErrors = new Counter({
    name: 'portal_mail_errors_total',
    help: 'Mails that could not be sent (each failed attempt)',
    registers: [this.registry],
  });

  constructor(db: Kysely<DB>) {
    collectDefaultMetrics({ register: this.registry, prefix: 'portal_' });
    // One query serves the three gauges of a scrape: the first collect reads, the others of the same scrape reuse it.
    let snapshot: Promise<QueueRow[]> | null = null;
    const read = () => (snapshot ??= queueSnapshot(db).finally(() => setTimeout(() => (snapshot = null), 0)));
    const queueGauge = (name: string, help: string, value: (r: QueueRow) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['kind'] as const,
        registers: [this.registry],
        async collect() {
          fill(this, await read(), value);
        },
      });
    queueGauge('portal_queue_depth', 'Jobs waiting in the database queue, by kind', (r) => r.queued);
    queueGauge('portal_queue_oldest_age_seconds', 'Age of the oldest waiting job, by kind (0 when none waits)', (r) => r.oldest);
    queueGauge('portal_jobs_running', 'Jobs held by a worker, by kind', (r) => r.running);
  }

  /** The text a scrape gets. */
  render(): Promise<string> {
    return this.registry.metrics();
  }
}

const KINDS = ['analyze', 'fit', 'generate', 'shrink'] as const;
interface QueueRow {
  kind: string;
  queued: number;
  running: number;
  oldest: number;
}

async function queueSnapshot(db: Kysely<DB>): Promise<QueueRow[]> {
  const t = Math.floor(Date.now() / 1000);
  const { rows } = await sql<{ kind: string; queued: number | string; running: number | string; oldest: number | string | null }>`
    select kind,
      count(*) filter (where state = 'queued') as queued,
      count(*) filter (where state = 'running') as running,
      min(created_at) filter (where state = 'queued') as oldest
    from jobs where state in ('queued', 'running') group by kind`.execute(db);
  return rows.map((r) => ({
    kind: r.kind,
    queued: Number(r.queued),
    running: Number(r.running),
    oldest: r.oldest === null ? 0 : Math.max(0, t - Number(r.oldest)),
  }));
}

function fill(gauge: Gauge<'kind'>, rows: QueueRow[], value: (r: QueueRow) => number): void {
  gauge.reset();
  // Every kind is always present, so a dashboard sees 0 rather than a gap.
  for (const kind of KINDS) gauge.set({ kind }, value(rows.find((r) => r.kind === kind) ?? { kind, queued: 0, running: 0, oldest: 0 }));
}

/**
 * Counts every request by its route pattern (never the raw URL, which carries ids and signatures), and serves
 * `GET /metrics` on the app's port, unless `port` is given: then on that port only (METRICS_PORT), so the public
 * port does not show it.
 */
export async function registerMetrics(
  app: FastifyInstance,
  metrics: Metrics,
  port?: number,
  host = '127.0.0.1',
): Promise<{ close(): Promise<void> }> {
  app.addHook('onResponse', async (req, reply) => {
    const call = req.routeOptions.url ?? 'unmatched';
    if (call === METRICS_PATH) return;
    metrics.requests.inc({ call, method: req.method, status: String(reply.statusCode) });
    metrics.requestSeconds.observe({ call, method: req.method }, reply.elapsedTime / 1000);
  });
  if (port === undefined) {
    app.get(METRICS_PATH, async (_req, reply) => reply.type(metrics.registry.contentType).send(await metrics.render()));
    return { close: async () => {} };
  }
  const server = await serveMetrics(metrics, port, host);
  return { close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A bare HTTP server that answers the metrics text on METRICS_PORT (API and worker processes alike). */
export function serveMetrics(metrics: Metrics, port: number, host = '127.0.0.1'): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== METRICS_PATH) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    metrics.render().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      (err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`Metrics unavailable: ${err.message}\n`),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

/**
 * The store with every failed operation counted in portal_storage_errors_total by its name (a thrown error or a
 * rejected promise; answers such as "nothing stored" are not failures). The store itself is unchanged.
 */
export function countStorageErrors<T extends object>(storage: T, errors: Counter<'op'>): T {
  return new Proxy(storage, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      const op = String(prop);
      return (...args: unknown[]) => {
        const count = (err: unknown) => {
          errors.inc({ op });
          throw err;
        };
        try {
          const out = value.apply(target, args);
          return out instanceof Promise ? out.catch(count) : out;
        } catch (err) {
          return count(err);
        }
      };
    },
  });
}
