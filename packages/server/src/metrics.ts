// Prometheus metrics of one process: API calls, the job queue as the database holds it, job outcomes, storage and mail.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { DB } from './db/schema';
import { currentRequestId } from './context';

export const METRICS_PATH = '/metrics';

/** The database pool's state at a scrape (the embedded database is one connection). */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

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
  readonly embeddingCalls = new Counter({
    name: 'portal_embedding_calls_total',
    help: 'Calls to the embeddings service (OPENAI_BASE_URL), by outcome (ok, timeout, error, rate_limited, refused, server_error)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly embeddingCallSeconds = new Histogram({
    name: 'portal_embedding_call_duration_seconds',
    help: 'Time a call to the embeddings service took, answer read',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers: [this.registry],
  });

  readonly webhookAttempts = new Counter({
    name: 'portal_webhook_attempts_total',
    help: 'Webhook delivery attempts by this process, by outcome (delivered, error_status, no_answer)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly webhookLag = new Histogram({
    name: 'portal_webhook_delivery_lag_seconds',
    help: 'Time from when a webhook delivery (or its retry) was due to when its attempt started',
    buckets: [0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3600],
    registers: [this.registry],
  });

  readonly diskFull = new Counter({
    name: 'portal_disk_full_total',
    help: "Writes refused because the disk was full (ENOSPC, or the database's disk_full), by part (storage, database)",
    labelNames: ['part'] as const,
    registers: [this.registry],
  });

  /** Free and total bytes of DATA_DIR's disk at each scrape. */
  watchDisk(space: () => Promise<{ free: number; size: number } | null>): void {
    const gauge = (name: string, help: string, value: (s: { free: number; size: number }) => number) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        async collect() {
          const s = await space();
          if (s) this.set(value(s));
        },
      });
    gauge('portal_disk_free_bytes', 'Bytes free (for this process) on the disk that holds DATA_DIR', (s) => s.free);
    gauge('portal_disk_size_bytes', 'Size in bytes of the disk that holds DATA_DIR', (s) => s.size);
  }

  readonly dbQuerySeconds = new Histogram({
    name: 'portal_db_query_duration_seconds',
    help: 'Database query durations in this process, by outcome (ok, error)',
    labelNames: ['outcome'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });

  constructor(db: Kysely<DB>, pool?: () => PoolStats) {
    if (pool) {
      const poolGauge = (name: string, help: string, value: (p: PoolStats) => number) =>
        new Gauge({
          name,
          help,
          registers: [this.registry],
          collect() {
            this.set(value(pool()));
          },
        });
      poolGauge('portal_db_pool_connections', 'Database connections this process holds (busy and idle)', (p) => p.total);
      poolGauge('portal_db_pool_idle', 'Database connections open and idle', (p) => p.idle);
      poolGauge('portal_db_pool_waiting', 'Queries waiting for a free database connection', (p) => p.waiting);
      poolGauge('portal_db_pool_max', 'Database connections this process may open', (p) => p.max);
    }
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

  /** Counts a call to the embeddings service (the provider settings' onCall). */
  embeddingCall = (call: { seconds: number; outcome: string }): void => {
    this.embeddingCalls.inc({ outcome: call.outcome });
    this.embeddingCallSeconds.observe(call.seconds);
  };

  /** The text a scrape gets. */
  render(): Promise<string> {
    return this.registry.metrics();
  }
}

/** The queue's kinds: processing jobs and mail waiting for its next attempt. */
const KINDS = ['analyze', 'fit', 'generate', 'shrink', 'mail'] as const;
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
 * `GET /metrics` on METRICS_PORT only (bound to METRICS_HOST, 127.0.0.1 by default), never on the public port.
 */
export async function registerMetrics(
  app: FastifyInstance,
  metrics: Metrics,
  port: number | null,
  host = '127.0.0.1',
): Promise<{ url: string | null; close(): Promise<void> }> {
  app.addHook('onResponse', (req, reply, done) => {
    const call = req.routeOptions.url ?? 'unmatched';
    metrics.requests.inc({ call, method: req.method, status: String(reply.statusCode) });
    metrics.requestSeconds.observe({ call, method: req.method }, reply.elapsedTime / 1000);
    done();
  });
  if (port === null) return { url: null, close: async () => {} };
  const server = await serveMetrics(metrics, port, host);
  return { url: metricsUrl(server, host), close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The address a metrics server answers on, as Prometheus would be told it. */
export function metricsUrl(server: Server, host: string): string {
  const { port } = server.address() as AddressInfo;
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}${METRICS_PATH}`;
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
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'EADDRINUSE' ? new Error(portInUse('METRICS_PORT', port, host)) : err),
    );
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

/** The sentence a port already taken gives at start (the server's port or the metrics port). */
export function portInUse(name: string, port: number, host: string): string {
  return `${name} ${port} on ${host} is already in use by another program: stop it, or set ${name} to a free port.`;
}

/**
 * Each query's time into portal_db_query_duration_seconds, and with LOG_LEVEL=debug a log line with its text
 * (never its parameters) and the request it served.
 */
export function observeQueries(
  metrics: Metrics,
  log: { level: string; debug(obj: object, msg: string): void },
): (ms: number, sqlText: string, failed: boolean) => void {
  const debug = log.level === 'debug' || log.level === 'trace';
  return (ms, sqlText, failed) => {
    metrics.dbQuerySeconds.observe({ outcome: failed ? 'error' : 'ok' }, ms / 1000);
    if (debug)
      log.debug({ sql: sqlText.slice(0, 1000), ms: Math.round(ms * 10) / 10, reqId: currentRequestId() ?? undefined, failed }, 'query');
  };
}
