// Opens the database: embedded PGlite in DATA_DIR/db by default, PostgreSQL when DATABASE_URL is set; migrates it.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, PostgresDialect, type KyselyConfig } from 'kysely';
import pg from 'pg';
import { PGliteDialect } from './pglite-dialect';
import { EmbeddedThread } from './embedded-thread';
import { migrate, migrationStatus } from './migrations';
import { directRunner, embeddedRunner, pgRunner, type QueryObserver } from './statements';
import { makePrivate } from '../datadir';
import { redactText } from '../redact';
import type { DB } from './schema';

export type { DB } from './schema';
export { newJobRow, newModelRow, newQuoteRow, newRunRow, type NewJob, type NewModel, type NewQuote, type NewRun } from './rows';

export interface Database {
  db: Kysely<DB>;
  kind: 'embedded' | 'postgres';
  /** The connection pool now (the embedded database is one connection, never waited for here). */
  pool(): { total: number; idle: number; waiting: number; max: number };
  /** The embedded database only: a consistent copy of its files (a tar), taken between transactions (admin backup). */
  snapshot?: () => Promise<Blob>;
  close(): Promise<void>;
}

export type { QueryObserver } from './statements';

/** Kysely's log hook, forwarding each query to the observer when there is one. */
const queryLog = (observe?: QueryObserver): KyselyConfig['log'] =>
  observe && ((event) => observe(event.queryDurationMillis, event.query.sql, event.level === 'error'));

/** The pool's size: the PostgreSQL connections each API or worker process opens at most. */
export const DEFAULT_POOL_MAX = 10;

// bigint columns hold epoch seconds, sizes and counts: all well inside a double's exact range.
pg.types.setTypeParser(20, (v) => Number(v));

export interface OpenOptions {
  dataDir: string;
  databaseUrl?: string;
  /**
   * `apply` (default): apply pending migrations; `check`: refuse a database with one pending (`serve --no-migrate`);
   * `none`: open it as it is (the `migrate` command, which then applies or lists them itself).
   */
  migrate?: 'apply' | 'check' | 'none';
  onQuery?: QueryObserver;
}

/** Migrates, or with `check` refuses a database that is behind (and says how to bring it up to date). */
async function prepare(db: Kysely<DB>, opts: OpenOptions): Promise<void> {
  if (opts.migrate === 'none') return;
  if (opts.migrate !== 'check') {
    await migrate(db);
    return;
  }
  const { pending } = await migrationStatus(db);
  if (pending.length) {
    throw new Error(
      `The database needs migration${pending.length > 1 ? 's' : ''} ${pending.join(', ')}: run \`portal-server migrate\` first (or start without --no-migrate).`,
    );
  }
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  let db: Kysely<DB>;
  let kind: Database['kind'];
  let poolStats: Database['pool'] = () => ({ total: 1, idle: 1, waiting: 0, max: 1 });
  if (opts.databaseUrl) {
    try {
      new URL(opts.databaseUrl);
    } catch {
      throw new Error('DATABASE_URL must look like postgres://user:password@host:5432/database');
    }
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: DEFAULT_POOL_MAX });
    // An idle connection dropped by the server (restart, failover) must not bring the process down: the pool reconnects.
    pool.on('error', (err) => console.error(redactText(`Database connection lost: ${err.message}`)));
    db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), log: queryLog(opts.onQuery) });
    directRunner(db, pgRunner(pool, opts.onQuery));
    kind = 'postgres';
    poolStats = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: DEFAULT_POOL_MAX });
  } else {
    const dir = join(opts.dataDir, 'db');
    // Private before the database writes a byte (the umask), and again once it is open and migrated: PGlite sets
    // its own modes on the files it unpacks and on some it writes (0666, 0644), whatever the umask says.
    makePrivate(opts.dataDir);
    const unlock = lockEmbedded(opts.dataDir);
    let thread: EmbeddedThread;
    let dialect: PGliteDialect;
    try {
      thread = await EmbeddedThread.open(dir);
      dialect = new PGliteDialect(thread);
      db = new Kysely<DB>({ dialect, log: queryLog(opts.onQuery) });
      directRunner(db, embeddedRunner(thread, dialect.lock, opts.onQuery));
    } catch (err) {
      unlock();
      throw err;
    }
    kind = 'embedded';
    const embedded = db;
    try {
      await prepare(embedded, opts);
    } catch (err) {
      await embedded.destroy();
      unlock();
      throw err;
    }
    makePrivate(opts.dataDir);
    return {
      db: embedded,
      kind,
      pool: poolStats,
      // Holding the session alone, no transaction is half done; the checkpoint leaves little for recovery to replay.
      snapshot: () =>
        dialect.lock.alone(async () => {
          await thread.exec('checkpoint');
          return thread.dump();
        }),
      close: async () => {
        await embedded.destroy();
        unlock();
        makePrivate(opts.dataDir);
      },
    };
  }
  try {
    await prepare(db, opts);
  } catch (err) {
    await db.destroy().catch(() => {});
    const where = new URL(opts.databaseUrl).host || 'DATABASE_URL';
    throw new Error(`Cannot use the PostgreSQL database at ${where}: ${(err as Error).message}`);
  }
  return { db, kind, pool: poolStats, close: () => db.destroy() };
}

/** The embedded database is held by another live process (a running server). */
export class EmbeddedInUseError extends Error {
  constructor(
    readonly pid: number,
    dataDir: string,
  ) {
    super(`The embedded database in ${dataDir} is in use by process ${pid}: stop that server first, or use DATABASE_URL.`);
  }
}

/**
 * The embedded database belongs to one process: two opening the same data dir would corrupt it. A pid file
 * guards it; a file left by a process that died (kill -9) is taken over.
 */
function lockEmbedded(dataDir: string): () => void {
  const file = join(dataDir, 'db.lock');
  for (let i = 0; i < 2; i++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch {
      const pid = Number(readFileSync(file, 'utf8'));
      if (pid && pid !== process.pid && alive(pid)) {
        throw new EmbeddedInUseError(pid, dataDir);
      }
      rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not lock the embedded database in ${dataDir}.`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
