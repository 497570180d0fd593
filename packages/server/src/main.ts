// `portal-server`: serve the API (with the worker, by default), run the worker alone, or operator admin commands.
import { Command } from 'commander';
import { Metrics, countStorageErrors, metricsUrl, observeQueries, portInUse, serveMetrics } from './metrics';
import { createServer } from 'node:net';
import { DEFAULT_DATA_DIR, loadConfig, describeConfig, type Config } from './config';
import { buildApp } from './app';
import { EmbeddedInUseError, openDatabase, type QueryObserver } from './db/index';
import { migrate, migrationStatus } from './db/migrations';
import { ADMIN_PATH } from './routes/admin';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BACKUP_ON_POSTGRES, BackupError, RESTORE_ON_POSTGRES, restoreBackup } from './backup';
import { openStorage, storageSettings } from './storage/index';
import { Secrets } from './auth/secrets';
import { JobQueue } from './worker/queue';
import { Worker, workerSettings } from './worker/worker';
import { fullDisk } from './disk';
import { AdminError, runAdmin } from './admin';
import { processLogger } from './redact';
import { openMailer } from './mail/index';

/** SIGTERM (an orchestrator, a rolling restart) stops with the drain; SIGINT (Ctrl+C) at once; a second signal exits. */
function onSignals(stop: (signal: 'SIGINT' | 'SIGTERM') => Promise<void>) {
  let stopping = false;
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      if (stopping) process.exit(1);
      stopping = true;
      stop(sig).then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
}

const adminFile = (dataDir: string) => join(dataDir, 'admin.json');

/** Fails at once, naming the variable, when a port is taken, before the database is opened or migrated. */
function portFree(name: string, port: number | null, host: string): Promise<void> {
  if (!port) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE'
          ? new Error(portInUse(name, port, host))
          : err.code === 'EACCES'
            ? new Error(`${name} ${port} needs privileges this process does not have: choose a port above 1023.`)
            : err.code === 'EADDRNOTAVAIL'
              ? new Error(`${name === 'PORT' ? 'HOST' : 'METRICS_HOST'} ${host} is not an address of this machine.`)
              : err,
      ),
    );
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

async function serve(config: Config) {
  console.log(`Starting the portal server with:\n${describeConfig(config)}`);
  await portFree('PORT', config.port, config.host);
  await portFree('METRICS_PORT', config.metricsPort, config.metricsHost);
  const built = await buildApp(config);
  const address = await built.app.listen({ port: config.port, host: config.host });
  const port = new URL(address).port;
  const anyHost = config.host === '0.0.0.0' || config.host === '::';
  const shown = config.publicUrl ?? `http://${anyHost ? 'localhost' : config.host}:${port}`;
  // Admin commands reach this process while it holds the embedded database (single-process) through this file.
  const local = anyHost ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host;
  const file = adminFile(config.dataDir);
  if (built.services.dbKind === 'embedded') {
    writeFileSync(file, JSON.stringify({ pid: process.pid, url: `http://${local}:${port}`, token: built.adminToken }), { mode: 0o600 });
  }
  onSignals(async (signal) => {
    const drain = signal === 'SIGTERM' && config.drainS > 0;
    if (drain) console.log(`Stopping: /api/ready answers 503 and requests are served for ${config.drainS} s more (PORTAL_DRAIN_S).`);
    await built.close({ drain });
    if (built.services.dbKind === 'embedded') rmSync(file, { force: true });
  });
  console.log(`Portal running at ${shown}`);
  console.log(
    built.metricsUrl
      ? `Metrics at ${built.metricsUrl} (METRICS_PORT, this machine only unless METRICS_HOST says otherwise)`
      : 'Metrics off (METRICS_PORT=off).',
  );
}

async function workerOnly(config: Config) {
  // JSON lines like the API's, through the same redaction (signed URLs, tokens in error texts).
  // The banner is plain text, as the API's is; what the worker logs while it runs is JSON lines like the API's, through
  // the same redaction (signed URLs, tokens in error texts).
  console.log(`Starting a portal worker with:\n${describeConfig(config)}`);
  await portFree('METRICS_PORT', config.metricsPort, config.metricsHost);
  const log = processLogger(config.logLevel, 'worker');
  const queries: { observe?: QueryObserver } = {};
  const database = await openDatabase({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    onQuery: (...q) => queries.observe?.(...q),
  });
  const secrets = new Secrets({ signing: config.jwtSecret, encryption: config.encryptionKeys });
  const metrics = new Metrics(database.db, database.pool);
  queries.observe = observeQueries(metrics, log);
  const storage = countStorageErrors(await openStorage({ ...storageSettings(config), secrets }), metrics.storageErrors);
  await storage.init({ exclusive: database.kind === 'embedded' });
  const metricsServer = config.metricsPort !== null ? await serveMetrics(metrics, config.metricsPort, config.metricsHost) : null;
  const mail = {
    secrets,
    mailer: openMailer({ smtpUrl: config.smtpUrl, dataDir: config.dataDir, log: (m) => log.info(m) }),
    errors: metrics.mailErrors,
  };
  const worker = new Worker({
    db: database.db,
    storage,
    jobs: new JobQueue(),
    log,
    exclusive: database.kind === 'embedded',
    ...workerSettings(config),
    metrics,
    mail,
    textEmbeddings: { baseUrl: config.openaiBaseUrl, timeoutS: config.openaiTimeoutS, secrets, onCall: metrics.embeddingCall },
    disk: fullDisk(config.dataDir, log, metrics),
  });
  await worker.start();
  onSignals(async () => {
    await worker.stop();
    metricsServer?.close();
    await database.close();
  });
  console.log(`Worker running: taking jobs from the database (worker ${worker.id}).`);
  if (metricsServer) console.log(`Metrics at ${metricsUrl(metricsServer, config.metricsHost)}`);
}

/** Sends an admin command to the running server that holds the embedded database. */
async function adminViaServer(dataDir: string, pid: number, command: string, args: string[], json: boolean): Promise<void> {
  let target: { pid: number; url: string; token: string };
  try {
    target = JSON.parse(readFileSync(adminFile(dataDir), 'utf8'));
  } catch {
    throw new Error(
      `The embedded database in ${dataDir} is in use by process ${pid}, which does not accept admin commands: stop it first.`,
    );
  }
  if (target.pid !== pid) throw new Error(`The embedded database in ${dataDir} is in use by process ${pid}: stop it first.`);
  const res = await fetch(`${target.url}${ADMIN_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-portal-admin': target.token },
    body: JSON.stringify({ command, args, json }),
  });
  const body = (await res.json().catch(() => ({}))) as { output?: string; error?: { message?: string } };
  if (!res.ok) {
    console.error(body.error?.message ?? `The running server answered ${res.status}.`);
    process.exitCode = 1;
    return;
  }
  console.log(body.output ?? '');
}

/** An admin command refused with its sentence (exit status 1). */
function refuse(message: string): void {
  console.error(message);
  process.exitCode = 1;
}

async function admin(command: string, args: string[], json = false) {
  const config = loadConfig(process.env, { worker: false });
  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  } catch (err) {
    // A running server holds the embedded database: it runs the command itself.
    if (err instanceof EmbeddedInUseError) return adminViaServer(config.dataDir, err.pid, command, args, json);
    throw err;
  }
  try {
    const secrets = new Secrets({ signing: config.jwtSecret, encryption: config.encryptionKeys });
    console.log(await runAdmin({ db: database.db, config, secrets, snapshot: database.snapshot }, command, args, json));
  } catch (err) {
    if (err instanceof AdminError) {
      console.error(err.message);
      process.exitCode = 1;
    } else throw err;
  } finally {
    await database.close();
  }
}

async function migrateCommand(o: { status?: boolean; json?: boolean }) {
  const config = loadConfig(process.env, { worker: false });
  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, migrate: 'none' });
  } catch (err) {
    if (err instanceof EmbeddedInUseError) {
      console.error(`${err.message} (a running server applies pending migrations when it starts).`);
      process.exitCode = 1;
      return;
    }
    throw err;
  }
  try {
    const applied = o.status ? [] : await migrate(database.db);
    const status = await migrationStatus(database.db);
    if (o.json) console.log(JSON.stringify({ appliedNow: applied, applied: status.applied, pending: status.pending }));
    else if (o.status) {
      for (const m of status.applied) console.log(`applied  ${m.id}  ${new Date(m.appliedAt * 1000).toISOString()}`);
      for (const id of status.pending) console.log(`pending  ${id}`);
      console.log(
        status.pending.length ? `${status.pending.length} pending: run \`portal-server migrate\`.` : 'The database is up to date.',
      );
    } else
      console.log(
        applied.length
          ? `Applied migration${applied.length > 1 ? 's' : ''} ${applied.join(', ')}.`
          : 'The database is up to date: nothing to apply.',
      );
  } finally {
    await database.close();
  }
}

const program = new Command('portal-server')
  .description('The portal API server: web portal, provider API and worker on one port.')
  .showHelpAfterError();

program
  .command('serve', { isDefault: true })
  .description('serve the API and the web portal (the worker runs in the same process unless PORTAL_WORKER=0)')
  .option('--no-migrate', 'do not apply pending migrations; refuse to start when one is pending')
  .action((o: { migrate: boolean }) => serve(loadConfig(process.env, { migrate: o.migrate })));

program
  .command('migrate')
  .description('apply pending database migrations (all in one transaction), or show them with --status')
  .option('--status', 'list applied and pending migrations without changing anything')
  .option('--json', 'print JSON')
  .action((o: { status?: boolean; json?: boolean }) => migrateCommand(o));

program
  .command('worker')
  .description('run only the job worker (scale-out: several workers share the database)')
  .action(() => workerOnly(loadConfig(process.env, { worker: true })));

const adm = program.command('admin').description('operator commands (same DATA_DIR / DATABASE_URL as the server)');
adm
  .command('set-plan <client> <plan>')
  .description("set a client's plan: Individual or Enterprise (client by id or name)")
  .action((c: string, p: string) => admin('set-plan', [c, p]));
adm
  .command('set-choice <client> <choice>')
  .description("set a client's choice: Cloud, Premise or CloudPremise")
  .action((c: string, ch: string) => admin('set-choice', [c, ch]));
adm
  .command('grant <email> <client>')
  .description('make a user a member of a client')
  .action((e: string, c: string) => admin('grant', [e, c]));
adm
  .command('revoke <email> <client>')
  .description("end a member's access to a client at once (every API process)")
  .action((e: string, c: string) => admin('revoke', [e, c]));
adm
  .command('rotate-keys')
  .option('--signing', 'a new signing key: signs everyone out and ends links handed out before')
  .option('--encryption', 're-encrypt stored key and integration tokens with a new encryption key')
  .description('replace the signing key, the encryption key, or both (stored tokens are kept)')
  .action((o: { signing?: boolean; encryption?: boolean }) =>
    admin('rotate-keys', [...(o.encryption ? ['--encryption'] : []), ...(o.signing ? ['--signing'] : [])]),
  );
adm
  .command('backup <file>')
  .description('write a consistent backup of the embedded database, the stored files and the keys in DATA_DIR (the server may run)')
  .action((f: string) => {
    // Refused before the configuration is read: reading it would make keys in DATA_DIR, which PostgreSQL does not use.
    if (process.env.DATABASE_URL?.trim()) return refuse(BACKUP_ON_POSTGRES);
    return admin('backup', [resolve(f)]);
  });
adm
  .command('restore <file>')
  .description('fill an empty DATA_DIR from a backup, then start the server on it')
  .action(async (f: string) => {
    // Not through loadConfig: it would make new keys in DATA_DIR, which must stay empty until the backup fills it.
    if (process.env.DATABASE_URL?.trim()) return refuse(RESTORE_ON_POSTGRES);
    const dataDir = resolve(process.env.DATA_DIR ?? DEFAULT_DATA_DIR);
    try {
      console.log(await restoreBackup(f, dataDir));
    } catch (err) {
      if (!(err instanceof BackupError)) throw err;
      console.error(err.message);
      process.exitCode = 1;
    }
  });
adm
  .command('users')
  .option('--json', 'print JSON')
  .description('list users and their clients')
  .action((o: { json?: boolean }) => admin('users', [], o.json));
adm
  .command('clients')
  .option('--json', 'print JSON')
  .description('list clients with plan and choice')
  .action((o: { json?: boolean }) => admin('clients', [], o.json));

program.parseAsync(process.argv).catch((err) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
