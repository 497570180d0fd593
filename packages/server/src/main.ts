// `portal-server`: serve the API (with the worker, by default), run the worker alone, or operator admin commands.
import { Command } from 'commander';
import { loadConfig, describeConfig, type Config } from './config';
import { buildApp } from './app';
import { openDatabase } from './db/index';
import { openStorage } from './storage/index';
import { Secrets } from './auth/secrets';
import { JobQueue } from './worker/queue';
import { Worker } from './worker/worker';
import { AdminError, grant, listClients, listUsers, setChoice, setPlan, table } from './admin';

function onSignals(stop: () => Promise<void>) {
  let stopping = false;
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      if (stopping) process.exit(1);
      stopping = true;
      stop().then(() => process.exit(0), () => process.exit(1));
    });
  }
}

async function serve(config: Config) {
  console.log(`Starting the portal server with:\n${describeConfig(config)}`);
  const built = await buildApp(config);
  onSignals(() => built.close());
  const address = await built.app.listen({ port: config.port, host: config.host });
  const port = new URL(address).port;
  const shown = config.publicUrl ?? `http://${config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host}:${port}`;
  console.log(`Portal running at ${shown}`);
}

async function workerOnly(config: Config) {
  console.log(`Starting a portal worker with:\n${describeConfig(config)}`);
  const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  const storage = await openStorage({ dataDir: config.dataDir, storageUrl: config.storageUrl, secrets: new Secrets(config.jwtSecret) });
  await storage.init({ exclusive: database.kind === 'embedded' });
  const log = { info: (m: string) => console.log(m), error: (o: unknown, m?: string) => console.error(m ?? '', o) };
  const worker = new Worker({ db: database.db, storage, jobs: new JobQueue(), log, exclusive: database.kind === 'embedded' });
  await worker.start();
  onSignals(async () => {
    await worker.stop();
    await database.close();
  });
  console.log('Worker running: taking jobs from the database.');
}

async function admin(fn: (db: Awaited<ReturnType<typeof openDatabase>>['db']) => Promise<string>) {
  const config = loadConfig(process.env, { worker: false });
  const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    console.log(await fn(database.db));
  } catch (err) {
    if (err instanceof AdminError) {
      console.error(err.message);
      process.exitCode = 1;
    } else throw err;
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
  .action(() => serve(loadConfig()));

program.command('worker').description('run only the job worker (scale-out: several workers share the database)').action(() => workerOnly(loadConfig(process.env, { worker: true })));

const adm = program.command('admin').description('operator commands (same DATA_DIR / DATABASE_URL as the server)');
adm.command('set-plan <client> <plan>').description('set a client\'s plan: Individual or Enterprise (client by id or name)').action((c: string, p: string) => admin((db) => setPlan(db, c, p)));
adm.command('set-choice <client> <choice>').description('set a client\'s choice: Cloud, Premise or CloudPremise').action((c: string, ch: string) => admin((db) => setChoice(db, c, ch)));
adm.command('grant <email> <client>').description('make a user a member of a client').action((e: string, c: string) => admin((db) => grant(db, e, c)));
adm.command('users').option('--json', 'print JSON').description('list users and their clients').action((o: { json?: boolean }) => admin(async (db) => {
  const rows = await listUsers(db);
  return o.json ? JSON.stringify(rows, null, 2) : table(rows);
}));
adm.command('clients').option('--json', 'print JSON').description('list clients with plan and choice').action((o: { json?: boolean }) => admin(async (db) => {
  const rows = await listClients(db);
  return o.json ? JSON.stringify(rows, null, 2) : table(rows);
}));

program.parseAsync(process.argv).catch((err) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
