// The Fastify app factory: external plugins, then services, then routes (fastify/demo's tiers), with one error handler.
import Fastify, { LogController, type FastifyError, type FastifyHttpOptions, type FastifyInstance } from 'fastify';
import type { Server } from 'node:http';
import rateLimit from '@fastify/rate-limit';
import { config as zodConfig } from 'zod/mini';
import { en as zodEnglish } from 'zod/locales';
import { CALLS, ERROR_CODES, MESSAGES } from '@portal/core';
import type { Config } from './config';
import { openDatabase, type Database, type QueryObserver } from './db/index';
import { Secrets } from './auth/secrets';
import { Tokens } from './auth/tokens';
import { Sessions } from './auth/sessions';
import { Otp } from './auth/otp';
import { reencryptStored } from './auth/keys';
import { redactingStream } from './redact';
import { browserOrigins, openStorage, storageSettings } from './storage/index';
import { openMailer } from './mail/index';
import { EmbeddedPayments } from './billing/payments';
import { JobQueue } from './worker/queue';
import { Worker, workerSettings } from './worker/worker';
import { Metrics, countStorageErrors, observeQueries, registerMetrics } from './metrics';
import { REQUEST_ID_HEADER, inRequest, requestIdOf, traceRequests } from './context';
import { CLOSE_GRACE_MS, closeGently, registerDrain, registerRequestTimeouts, serverTimeouts, sleep, trackSockets } from './lifecycle';
import { HttpError, badRequest, codeForStatus, storageFull } from './errors';
import { DiskWatch } from './disk';
import { jsonTooDeep, TOO_DEEP_MESSAGE } from './bodies';
import { clientErrorHandler, registerSecurityHeaders } from './security';
import { NUL_MESSAGE, contractSerializer, contractValidator } from './routes/define';
import { databaseRateStore } from './ratelimit';
import { userRoutes } from './routes/user';
import { securityRoutes } from './routes/security';
import { accountRoutes } from './routes/account';
import { projectRoutes } from './routes/projects';
import { keyRoutes } from './routes/keys';
import { uploadRoutes } from './routes/uploads';
import { requestRoutes } from './routes/requests';
import { modelRoutes } from './routes/models';
import { quoteRoutes } from './routes/quotes';
import { usageRoutes } from './routes/usage';
import { isUploadBytes, storageRoutes } from './routes/storage';
import { readyRoutes } from './routes/ready';
import { packRoutes } from './routes/pack';
import { previewRoutes } from './routes/preview';
import { webRoutes } from './routes/web';
import { adminRoutes } from './routes/admin';
import { memberRoutes } from './routes/member';
import { webhookRoutes } from './routes/webhooks';
import { referenceRoutes } from './routes/reference';
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

/** The levels at which the access line (level info) is written. */
const ACCESS_LOG_LEVELS: ReadonlySet<string> = new Set(['info', 'debug', 'trace']);

export async function buildApp(config: Config, opts: AppOptions = {}): Promise<BuiltApp> {
  // Core's contract uses zod/mini, which carries no messages of its own: the 400 answers quote zod's English texts.
  zodConfig(zodEnglish());
  const options: FastifyHttpOptions<Server> = {
    // Every line passes the one redaction (src/redact.ts) on its way out, whoever wrote it: access log, errors, worker.
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel, stream: redactingStream(opts.logStream) },
    // One access line per request (written in onResponse below) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    trustProxy: config.trustProxy,
    // Request ids unique across processes, or the balancer's own (see context.ts); every log line of the request has it.
    genReqId: (req) => requestIdOf(req.headers[REQUEST_ID_HEADER]),
    ...serverTimeouts(config),
    clientErrorHandler: clientErrorHandler(config),
    // A request arriving while the app closes is answered by registerDrain, in the product's envelope.
    return503OnClosing: false,
  };
  const app = Fastify(options);

  // ---- tier 1: external plugins ----
  registerSecurityHeaders(app, config);
  // At LOG_LEVEL=debug every request runs in its own context, so its queries' lines carry its id (see context.ts).
  traceRequests(config.logLevel === 'debug' || config.logLevel === 'trace');
  app.addHook('onRequest', (req, reply, done) => {
    reply.header(REQUEST_ID_HEADER, req.id);
    inRequest(req.id, done);
  });
  registerRequestTimeouts(app, config, isUploadBytes);
  // The access line, when the level shows it. Callback hooks, not async ones, on every request: an async hook
  // costs a promise per request.
  if (ACCESS_LOG_LEVELS.has(config.logLevel)) {
    app.addHook('onResponse', (req, reply, done) => {
      req.log.info(
        {
          req: { method: req.method, url: req.url, remoteAddress: req.ip },
          res: { statusCode: reply.statusCode },
          call: req.routeOptions.url,
          ms: Math.round(reply.elapsedTime * 10) / 10,
        },
        'request',
      );
      done();
    });
  }
  // Query times go to the metrics made below (they need the database first).
  const queries: { observe?: QueryObserver } = {};
  const database =
    opts.database ??
    (await openDatabase({
      dataDir: config.dataDir,
      databaseUrl: config.databaseUrl,
      migrate: config.migrate ? 'apply' : 'check',
      onQuery: (...q) => queries.observe?.(...q),
    }));
  await app.register(rateLimit, {
    global: false,
    store: databaseRateStore(database.db),
    errorResponseBuilder: () => new HttpError(429, ERROR_CODES.rateLimited, MESSAGES.rateLimited),
  });
  // An empty JSON body (curl -H 'content-type: application/json' -X POST) means no body, not an error;
  // anything else goes through Fastify's parser, which refuses __proto__ and constructor pollution.
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (String(body).trim() === '') return done(null, undefined);
    // Before the parser and every walk after it (the NUL check, the schemas), which recurse per level.
    if (jsonTooDeep(body as string)) return done(badRequest(TOO_DEEP_MESSAGE), undefined);
    json(req, body as string, done);
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  // A full disk is answered 507 wherever it is met (a route's database write, a store's file call).
  const disk = new DiskWatch(config.dataDir, app.log);
  app.setErrorHandler((err: FastifyError | HttpError, req, reply) => {
    if ((err instanceof HttpError && err.statusCode === 507) || disk.noteIfFull(err)) {
      const full = storageFull();
      return reply
        .code(full.statusCode)
        .headers(full.headers ?? {})
        .send({ error: { code: full.code, message: full.message } });
    }
    // Text the database cannot store (a NUL character, e.g. in Basic auth or a path) is bad input, not a failure.
    const dbCode = (err as { code?: unknown }).code;
    if (dbCode === '22021' || dbCode === '22P05') {
      return reply.code(400).send({ error: { code: ERROR_CODES.invalid, message: `Text ${NUL_MESSAGE}.` } });
    }
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500;
    if (status >= 500) {
      req.log.error({ err }, 'Request failed');
      return reply.code(500).send({ error: { code: ERROR_CODES.internal, message: MESSAGES.unexpected } });
    }
    if (err instanceof HttpError && err.headers) reply.headers(err.headers);
    const code = err instanceof HttpError ? err.code : codeForStatus(status);
    // Library errors (bad JSON, wrong content type) carry a readable message and never a stack.
    const message = err instanceof HttpError ? err.message : status === 429 ? MESSAGES.rateLimited : err.message || MESSAGES.unexpected;
    return reply.code(status).send({ error: { code, message } });
  });

  // ---- tier 2: services ----
  const secrets = new Secrets({ signing: config.jwtSecret, encryption: config.encryptionKeys });
  // Tokens written by earlier versions (a key derived from JWT_SECRET) or under an older ENCRYPTION_KEY move now.
  const stored = await reencryptStored(database.db, secrets);
  if (stored.moved) app.log.info(`Re-encrypted ${stored.moved} stored token(s) with the current encryption key.`);
  if (stored.unreadable) {
    app.log.warn(
      `${stored.unreadable} stored token(s) cannot be read with ENCRYPTION_KEY (a key that was changed or lost): their lists say so; put the old key after the new one in ENCRYPTION_KEY to recover them.`,
    );
  }
  const tokens = new Tokens(secrets);
  const metrics = new Metrics(database.db, database.pool);
  queries.observe = observeQueries(metrics, app.log);
  metrics.watchDisk(() => disk.space());
  disk.onFull = (part) => metrics.diskFull.inc({ part });
  const storage = countStorageErrors(
    await openStorage({ ...storageSettings(config), secrets, corsOrigins: browserOrigins(config), log: app.log }),
    metrics.storageErrors,
  );
  await storage.init({ exclusive: database.kind === 'embedded' });
  const services: Services = {
    config,
    db: database.db,
    dbKind: database.kind,
    secrets,
    tokens,
    sessions: new Sessions(database.db, tokens),
    otp: new Otp(database.db, secrets),
    storage,
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
    lifecycle: { stopping: false, closed: false },
    snapshot: database.snapshot,
  };
  registerDrain(app, services.lifecycle);
  trackSockets(app.server);
  const metricsServer = await registerMetrics(app, services.metrics, config.metricsPort, config.metricsHost);

  // ---- tier 3: routes ----
  // Every call's query and body are checked by Fastify against the contract's schemas before the handler, and its
  // answers written (and under PORTAL_CHECK_ANSWERS checked) against the contract (routes/define.ts).
  app.setValidatorCompiler(contractValidator);
  app.setSerializerCompiler(contractSerializer(config.checkAnswers));
  // First: it hears every call route registered after it, for the API reference.
  await referenceRoutes(app, serverVersion());
  // Liveness: the process is up and answers. What it depends on (database, storage, workers) is readiness's
  // business (/api/ready): a database outage must take processes out of rotation, not get them restarted.
  app.get(CALLS.health.path, async () => ({ ok: true as const }));
  readyRoutes(app, services);
  userRoutes(app, services);
  securityRoutes(app, services);
  accountRoutes(app, services);
  keyRoutes(app, services);
  projectRoutes(app, services);
  uploadRoutes(app, services);
  requestRoutes(app, services);
  modelRoutes(app, services);
  quoteRoutes(app, services);
  memberRoutes(app, services);
  webhookRoutes(app, services);
  usageRoutes(app, services);
  storageRoutes(app, services);
  packRoutes(app, services);
  previewRoutes(app, services);
  services.payments.register(app, services);
  const adminToken = randomBytes(32).toString('base64url');
  adminRoutes(app, services, adminToken);
  await webRoutes(app, config.webDist);

  let worker: Worker | null = null;
  if (config.worker) {
    worker = new Worker({
      db: services.db,
      storage,
      jobs: services.jobs,
      log: app.log,
      exclusive: database.kind === 'embedded',
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
      services.lifecycle.stopping = true;
      // The worker stops while the API drains: both deadlines run at once.
      await Promise.all([worker?.stop(), drain ? sleep(config.drainS * 1000) : null]);
      // Requests in flight get the same grace as jobs (PORTAL_SHUTDOWN_S); a client that never finishes its
      // request (a stalled upload body) is then cut off, so a shutdown is never held open by someone else.
      const cutOff = setTimeout(() => app.server.closeAllConnections(), config.shutdownS * 1000);
      services.lifecycle.closed = true;
      try {
        // The port closes first, and connections end as they finish (see closeGently); then the app closes.
        await closeGently(app.server, drain ? CLOSE_GRACE_MS : 10);
        await app.close();
      } finally {
        clearTimeout(cutOff);
      }
      await metricsServer.close();
      if (!opts.database) await database.close();
    },
  };
}
