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
  readonly requests = this.counter('portal_http_requests_total', 'API requests by call (route pattern), method and status', [
    'call',
    'method',
    'status',
  ]);
  readonly requestSeconds = this.histogram(
    'portal_http_request_duration_seconds',
    'API request durations by call and method',
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    ['call', 'method'],
  );
  readonly jobs = this.counter(
    'portal_jobs_total',
    'Jobs settled by this process, by kind and outcome (done, failed, overrun, requeued, waiting)',
    ['kind', 'outcome'],
  );
  readonly jobSeconds = this.histogram(
    'portal_job_duration_seconds',
    'Time a job ran in this process, by kind',
    [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900],
    ['kind'],
  );
  readonly leaseTakeovers = this.counter(
    'portal_job_lease_takeovers_total',
    'Jobs this process took back from a worker whose lease ran out',
  );
  readonly storageErrors = this.counter('portal_storage_errors_total', 'Storage operations that failed, by operation', ['op']);
  readonly mailErrors = this.counter('portal_mail_errors_total', 'Mails that could not be sent (each failed attempt)');
  readonly embeddingCalls = this.counter(
    'portal_embedding_calls_total',
    'Calls to the embeddings service (OPENAI_BASE_URL), by outcome (ok, timeout, error, rate_limited, refused, server_error)',
    ['outcome'],
  );
  readonly embeddingCallSeconds = this.histogram(
    'portal_embedding_call_duration_seconds',
    'Time a call to the embeddings service took, answer read',
    [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
  );

  readonly webhookAttempts = this.counter(
    'portal_webhook_attempts_total',
    'Webhook delivery attempts by this process, by outcome (delivered, error_status, no_answer)',
    ['outcome'],
  );
  readonly webhookLag = this.histogram(
    'portal_webhook_delivery_lag_seconds',
    'Time from when a webhook delivery (or its retry) was due to when its attempt started',
    [0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3600],
  );

  readonly diskFull = this.counter(
    'portal_disk_full_total',
    "Writes refused because the disk was full (ENOSPC, or the database's disk_full), by part (storage, database)",
    ['part'],
  );

  /** Free and total bytes of DATA_DIR's disk at each scrape. */
  watchDisk(space: () => Promise<{ free: number; size: number } | null>): void {
    const diskGauge = (name: string, help: string, value: (s: { free: number; size: number }) => number) =>
      this.gauge(name, help, async (g) => {
        const s = await space();
        if (s) g.set(value(s));
      });
    diskGauge('portal_disk_free_bytes', 'Bytes free (for this process) on the disk that holds DATA_DIR', (s) => s.free);
    diskGauge('portal_disk_size_bytes', 'Size in bytes of the disk that holds DATA_DIR', (s) => s.size);
  }

  readonly dbQuerySeconds = this.histogram(
    'portal_db_query_duration_seconds',
    'Database query durations in this process, by outcome (ok, error)',
    [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    ['outcome'],
  );

  constructor(db: Kysely<DB>, pool?: () => PoolStats) {
    if (pool) {
      const poolGauge = (name: string, help: string, value: (p: PoolStats) => number) =>
        this.gauge(name, help, (g) => g.set(value(pool())));
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
      this.gauge(name, help, async (g) => fill(g, await read(), value), ['kind']);
    queueGauge('portal_queue_depth', 'Jobs waiting in the database queue, by kind', (r) => r.queued);
    queueGauge('portal_queue_oldest_age_seconds', 'Age of the oldest waiting job, by kind (0 when none waits)', (r) => r.oldest);
    queueGauge('portal_jobs_running', 'Jobs held by a worker, by kind', (r) => r.running);
  }

  /** A counter in this registry; with label names, one number for each of their values. */
  private counter<L extends string = string>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
    return new Counter<L>({ name, help, labelNames, registers: [this.registry] });
  }

  private histogram<L extends string = string>(name: string, help: string, buckets: number[], labelNames: readonly L[] = []): Histogram<L> {
    return new Histogram<L>({ name, help, labelNames, buckets, registers: [this.registry] });
  }

  /** A gauge in this registry whose value `collect` sets at each scrape. */
  private gauge<L extends string = string>(
    name: string,
    help: string,
    collect: (g: Gauge<L>) => void | Promise<void>,
    labelNames: readonly L[] = [],
  ): Gauge<L> {
    return new Gauge<L>({
      name,
      help,
      labelNames,
      registers: [this.registry],
      collect() {
        return collect(this);
      },
    });
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
