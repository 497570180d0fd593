// The Fastify app: a short composition of plugins (fastify/demo's): the server's own (security, database, storage),
// then each route group, given only the services it uses. Each group is encapsulated; the server's plugins are not.
import Fastify, { LogController, type FastifyHttpOptions, type FastifyInstance } from 'fastify';
import type { Server } from 'node:http';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { config as zodConfig } from 'zod/mini';
import { en as zodEnglish } from 'zod/locales';
import { CALLS } from '@portal/core/contract/table';
import type { Config } from './config';
import type { Database, QueryObserver } from './db/index';
import { Secrets } from './auth/secrets';
import { Tokens } from './auth/tokens';
import { Sessions } from './auth/sessions';
import { Otp } from './auth/otp';
import { redactingStream } from './redact';
import { openMailer } from './mail/index';
import { EmbeddedPayments } from './billing/payments';
import { JobQueue } from './worker/queue';
import { Worker, workerSettings } from './worker/worker';
import { Metrics, observeQueries, registerMetrics } from './metrics';
import { REQUEST_ID_HEADER, requestIdOf } from './context';
import { CLOSE_GRACE_MS, Connections, serverTimeouts, sleep } from './lifecycle';
import { DiskWatch } from './disk';
import { clientErrorHandler } from './security';
import security from './plugins/security';
import database from './plugins/database';
import storage from './plugins/storage';
import { only } from './plugins/only';
import { userRoutes } from './routes/user';
import { securityRoutes } from './routes/security';
import { accountRoutes } from './routes/account';
import { accountExportRoutes } from './routes/accountExport';
import { projectRoutes } from './routes/projects';
import { keyRoutes } from './routes/keys';
import { uploadRoutes } from './routes/uploads';
import { requestRoutes } from './routes/requests';
import { modelRoutes } from './routes/models';
import { quoteRoutes } from './routes/quotes';
import { usageRoutes } from './routes/usage';
import { storageRoutes } from './routes/storage';
import { readyRoutes } from './routes/ready';
import { packRoutes } from './routes/pack';
import { previewRoutes } from './routes/preview';
import { webRoutes } from './routes/web';
import { adminRoutes } from './routes/admin';
import { memberRoutes } from './routes/member';
import { webhookRoutes } from './routes/webhooks';
import { referenceRoutes } from './routes/reference';
import { CALL_SERVICES } from './routes/define';
import { MAIL_SERVICES } from './mail/outbox';
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import type { PaymentProvider, Services } from './services';

export interface BuiltApp {
  app: FastifyInstance;
  /** Authorises operator commands sent to this process (see routes/admin.ts). */
  adminToken: string;
  services: Services;
  worker: Worker | null;
  /** Where GET /metrics answers (METRICS_PORT), or null when it is off. */
  metricsUrl: string | null;
  /**
   * Stops the worker, the server and the database, in that order. With `drain`, first fails readiness and keeps
   * serving for PORTAL_DRAIN_S with connections closed after each response (a rolling restart behind a balancer).
   */
  close(opts?: { drain?: boolean }): Promise<void>;
}

export interface AppOptions {
  /** An already opened database (tests share one); otherwise opened from the config. */
  database?: Database;
  payments?: PaymentProvider;
  /** Where log lines go (already redacted); stdout unless given (tests read what a request logged). */
  logStream?: { write(line: string): unknown };
}

/** The server package's version, for the API reference. */
const serverVersion = () => (createRequire(import.meta.url)('../package.json') as { version: string }).version;

function serverOptions(config: Config, opts: AppOptions): FastifyHttpOptions<Server> {
  return {
    // Every line passes the one redaction (src/redact.ts) on its way out, whoever wrote it: access log, errors, worker.
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel, stream: redactingStream(opts.logStream) },
    // One access line per request (written by the security plugin) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    trustProxy: config.trustProxy,
    // Request ids unique across processes, or the balancer's own (see context.ts); every log line of the request has it.
    genReqId: (req) => requestIdOf(req.headers[REQUEST_ID_HEADER]),
    ...serverTimeouts(config),
    clientErrorHandler: clientErrorHandler(config),
    // A request arriving while the app closes is answered by registerDrain, in the product's envelope.
    return503OnClosing: false,
    // No deadline on a plugin's start: the database plugin migrates, and a migration takes as long as the data needs.
    pluginTimeout: 0,
  };
}

export async function buildApp(config: Config, opts: AppOptions = {}): Promise<BuiltApp> {
  // Core's contract uses zod/mini, which carries no messages of its own: the 400 answers quote zod's English texts.
  zodConfig(zodEnglish());
  const app = Fastify(serverOptions(config, opts)).withTypeProvider<ZodTypeProvider>();
  const disk = new DiskWatch(config.dataDir, app.log);
  const secrets = new Secrets({ signing: config.jwtSecret, encryption: config.encryptionKeys });
  // Query times go to the metrics, made once the database is open.
  const queries: { observe?: QueryObserver } = {};

  const lifecycle: Services['lifecycle'] = { stopping: false, closed: false };
  const connections = new Connections(app.server, lifecycle);

  // ---- the server's plugins ----
  await app.register(security, { config, disk, connections });
  await app.register(database, { config, secrets, database: opts.database, queries });
  const metrics = new Metrics(app.database.db, app.database.pool);
  queries.observe = observeQueries(metrics, app.log);
  metrics.watchDisk(() => disk.space());
  disk.onFull = (part) => metrics.diskFull.inc({ part });
  await app.register(storage, { config, secrets, metrics, exclusive: app.database.kind === 'embedded' });

  const tokens = new Tokens(secrets);
  const services: Services = {
    config,
    db: app.database.db,
    dbKind: app.database.kind,
    secrets,
    tokens,
    sessions: new Sessions(app.database.db, tokens),
    otp: new Otp(app.database.db, secrets),
    storage: app.storage,
    mailer: openMailer({ smtpUrl: config.smtpUrl, dataDir: config.dataDir, log: (m) => app.log.info(m) }),
    payments:
      opts.payments ??
      new EmbeddedPayments(
        (...p) => secrets.sign(...p),
        (sig, ...p) => secrets.verify(sig, ...p),
      ),
    jobs: new JobQueue(),
    metrics,
    disk,
    lifecycle,
    snapshot: app.database.snapshot,
  };
  const metricsServer = await registerMetrics(app, metrics, config.metricsPort, config.metricsHost);

  // ---- the route groups, each given only the services it uses ----
  const call = <K extends keyof Services>(...more: K[]) => only<K | (typeof CALL_SERVICES)[number]>(services, ...CALL_SERVICES, ...more);
  // First: it hears every call route registered after it, for the API reference.
  await app.register(referenceRoutes, { version: serverVersion() });
  // Liveness: the process is up and answers. What it depends on (database, storage, workers) is readiness's
  // business (/api/ready): a database outage must take processes out of rotation, not get them restarted.
  app.get(CALLS.health.path, async () => ({ ok: true as const }));
  await app.register(readyRoutes, only(services, 'db', 'disk', 'lifecycle', 'storage'));
  await app.register(userRoutes, call('otp', ...MAIL_SERVICES));
  await app.register(securityRoutes, call('otp', ...MAIL_SERVICES));
  await app.register(accountRoutes, call('otp', ...MAIL_SERVICES));
  await app.register(accountExportRoutes, call('otp'));
  await app.register(keyRoutes, call('secrets'));
  await app.register(projectRoutes, call());
  await app.register(uploadRoutes, call('jobs', 'storage'));
  await app.register(requestRoutes, call('jobs', 'storage'));
  await app.register(modelRoutes, call());
  await app.register(quoteRoutes, call('jobs', 'payments'));
  await app.register(memberRoutes, call(...MAIL_SERVICES));
  await app.register(webhookRoutes, call('jobs', 'lifecycle', 'secrets'));
  await app.register(usageRoutes, call());
  await app.register(storageRoutes, only(services, 'db', 'disk', 'storage'));
  await app.register(packRoutes, only(services, 'db'));
  await app.register(previewRoutes, call());
  await app.register(async (scoped) => services.payments.register(scoped, only(services, 'db', 'jobs')));
  const adminToken = randomBytes(32).toString('base64url');
  await app.register(adminRoutes, { ...only(services, 'config', 'db', 'secrets', 'snapshot'), token: adminToken });
  await app.register(webRoutes, { webDist: config.webDist });

  let worker: Worker | null = null;
  if (config.worker) {
    worker = new Worker({
      db: services.db,
      storage: services.storage,
      jobs: services.jobs,
      log: app.log,
      exclusive: app.database.kind === 'embedded',
      ...workerSettings(config),
      metrics: services.metrics,
      mail: { secrets, mailer: services.mailer, errors: services.metrics.mailErrors },
      textEmbeddings: { baseUrl: config.openaiBaseUrl, timeoutS: config.openaiTimeoutS, secrets, onCall: metrics.embeddingCall },
      webhooks: { secrets, allowPrivate: config.webhookAllowPrivate, metrics },
      disk,
    });
    await worker.start();
  }

  return {
    app,
    adminToken,
    services,
    worker,
    metricsUrl: metricsServer.url,
    async close({ drain = false } = {}) {
      connections.drain();
      // The worker stops while the API drains: both deadlines run at once.
      await Promise.all([worker?.stop(), drain ? sleep(config.drainS * 1000) : null]);
      // Requests in flight get the same grace as jobs (PORTAL_SHUTDOWN_S); a client that never finishes its
      // request (a stalled upload body) is then cut off, so a shutdown is never held open by someone else.
      const cutOff = setTimeout(() => app.server.closeAllConnections(), config.shutdownS * 1000);
      try {
        // The port closes first, and connections end as they finish (see closeGently); then the app closes.
        await connections.closeGently(drain ? CLOSE_GRACE_MS : 10);
        await app.close();
      } finally {
        clearTimeout(cutOff);
      }
      // The database (when the app opened it) closed with the app, after every request and route.
      await metricsServer.close();
    },
  };
}
