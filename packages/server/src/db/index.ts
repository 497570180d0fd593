// Opens the database: embedded PGlite in DATA_DIR/db by default, PostgreSQL when DATABASE_URL is set; migrates it.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CompiledQuery, Kysely, PostgresDialect, sql, type KyselyConfig } from 'kysely';
import pg from 'pg';
import { PGliteDialect } from './pglite-dialect';
import { EmbeddedThread } from './embedded-thread';
import { migrate, migrationStatus } from './migrations';
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

/** Told of every query: its time, its text (parameters never), and whether it failed (metrics, debug logs). */
export type QueryObserver = (ms: number, sqlText: string, failed: boolean) => void;

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
    pool.on('connect', (client) => onConnection(client, opts.onQuery));
    // Query times are taken on each connection (onConnection) and by the direct runner, for every query, instead of
    // by a log wrapper of Kysely's around each one.
    db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    directRunners.set(db, directRunner(pool, opts.onQuery));
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

const PREPARED_START = '/* prepared:';
/** The comment a statement's text starts with to run as a named prepared statement on PostgreSQL. */
export const preparedMark = (name: string) => `${PREPARED_START}${name} */`;
/** The same mark for a query built with Kysely. */
export const PREPARED = (name: string) => sql.raw(preparedMark(name));
const PREPARED_MARK = /^\/\* prepared:(\w+) \*\//;

/** How a statement runs on a database's own connections, without Kysely's executor. */
type DirectRunner = <R>(text: string, values: unknown[]) => Promise<R[]>;
const directRunners = new WeakMap<Kysely<DB>, DirectRunner>();

/**
 * One statement with $n parameters (hot ones marked `/* prepared:name *\/`, see statementName), its rows. On
 * PostgreSQL, outside a transaction, it goes to the pool's connection itself, without Kysely's executor (its
 * connection provider and chain of promises per query: about 20 µs of the HTTP thread per project list, measured
 * in bench/api's third round). In a transaction (`trx` is its own Kysely) and on the embedded database it runs
 * through Kysely like every other query.
 */
export async function runStatement<R>(db: Kysely<DB>, text: string, values: unknown[]): Promise<R[]> {
  const direct = directRunners.get(db);
  if (direct) return direct<R>(text, values);
  return (await db.executeQuery<R>(CompiledQuery.raw(text, values))).rows;
}

/**
 * The statement name of a marked text: the mark's name and the text's number, since one mark covers each shape of
 * its query. The shapes are fixed by the code; past PREPARED_TEXTS_MAX texts (a mark on a query whose text varies)
 * the rest run unprepared, so a connection never holds statements without bound.
 */
const statementNames = new Map<string, string>();
const PREPARED_TEXTS_MAX = 200;
export function statementName(text: string): string | null {
  if (!text.startsWith(PREPARED_START)) return null;
  // A text seen before is found by the lookup alone (a text built once and kept is the same string, its hash kept).
  let name = statementNames.get(text);
  if (name) return name;
  const m = PREPARED_MARK.exec(text);
  if (!m) return null;
  if (statementNames.size < PREPARED_TEXTS_MAX) statementNames.set(text, (name = `${m[1]}_${statementNames.size}`));
  return name ?? null;
}

/**
 * A statement on one of the pool's connections, all in callbacks: the connection goes back to the pool the moment
 * its answer is read, and the caller's promise is the only one made. A statement that fails
 * leaves its connection usable (released without the error, as Kysely does); a broken connection is dropped by the
 * pool. Its time goes to the observer.
 */
function directRunner(pool: pg.Pool, observe?: QueryObserver): DirectRunner {
  return <R>(text: string, values: unknown[]) =>
    new Promise<R[]>((resolve, reject) => {
      const started = performance.now();
      pool.connect((connectError, client, release) => {
        if (connectError || !client) return reject(connectError ?? new Error('No database connection'));
        const name = statementName(text);
        // A config object: onConnection's wrapper passes it through, so the time is taken here, once.
        const config = name ? { name, text, values } : { text, values };
        client.query<R & pg.QueryResultRow>(config, (error: Error | undefined, result: pg.QueryResult<R & pg.QueryResultRow>) => {
          release();
          observe?.(performance.now() - started, text, !!error);
          if (error) reject(error);
          else resolve(result.rows);
        });
      });
    });
}

/**
 * Each new connection: hot queries are prepared once per connection and then only bound and executed (PostgreSQL
 * plans the list query in about three times as long as it runs it; only marked texts are prepared, so the number of
 * statements a connection holds stays fixed), and every query's time goes to the observer.
 */
function onConnection(client: pg.PoolClient, observe?: QueryObserver): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (text: unknown, values?: unknown, ...rest: unknown[]) => {
    const name = typeof text === 'string' && Array.isArray(values) ? statementName(text) : null;
    const started = observe && typeof text === 'string' ? performance.now() : 0;
    const out = name ? query({ name, text, values }, ...rest) : query(text, values, ...rest);
    // Promised queries (Kysely's) are timed here; the direct runner times its own, a cursor is not timed.
    if (started && out instanceof Promise) {
      const sqlText = text as string;
      out.then(
        () => observe!(performance.now() - started, sqlText, false),
        () => observe!(performance.now() - started, sqlText, true),
      );
    }
    return out;
  };
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
