// The statements the hot paths run, and how they run: each compiled once and kept here (the one cache of statement
// texts and names), then run as a prepared statement through the driver's own API: pg's named queries on
// PostgreSQL, a statement parsed once in the session on the embedded database (pglite-thread.mjs). Values are
// always bound parameters.
import { CompiledQuery, type Kysely } from 'kysely';
import type pg from 'pg';
import type { EmbeddedThread } from './embedded-thread';
import type { SessionLock } from './pglite-dialect';
import type { DB } from './schema';

/** Told of every query: its time, its text (parameters never), and whether it failed (metrics, debug logs). */
export type QueryObserver = (ms: number, sqlText: string, failed: boolean) => void;

const PREPARED_START = '/* prepared:';
/** The comment a statement's text starts with to run as a named prepared statement. */
export const preparedMark = (name: string) => `${PREPARED_START}${name} */`;
const PREPARED_MARK = /^\/\* prepared:(\w+) \*\//;

/**
 * How a statement runs on a database's own connections, without Kysely's executor (its connection provider and
 * chain of promises per query: about 20 µs of the HTTP thread per project list, measured in bench/api's third
 * round). `name`: the statement's name, prepared once per connection; null runs it unnamed.
 */
type DirectRunner = <R>(text: string, values: unknown[], name: string | null) => Promise<R[]>;
const directRunners = new WeakMap<Kysely<DB>, DirectRunner>();

/** The runner of a database opened by db/index.ts. */
export function directRunner(db: Kysely<DB>, runner: DirectRunner): void {
  directRunners.set(db, runner);
}

/**
 * One statement with $n parameters (hot ones marked `/* prepared:name *\/`, see statementName), its rows. Outside a
 * transaction it goes to the database's own connection (directRunner); in a transaction (`trx` is its own Kysely) it
 * runs through Kysely, unprepared, like every other query.
 */
export async function runStatement<R>(db: Kysely<DB>, text: string, values: unknown[]): Promise<R[]> {
  const direct = directRunners.get(db);
  if (direct) return direct<R>(text, values, statementName(text));
  return (await db.executeQuery<R>(CompiledQuery.raw(text, values))).rows;
}

/**
 * The statement name of a marked text: the mark's name and the text's number, since one mark covers each shape of
 * its query. The shapes are fixed by the code; past PREPARED_TEXTS_MAX texts (a mark on a query whose text varies)
 * the rest run unprepared, so a connection never holds statements without bound.
 */
const statementNames = new Map<string, string>();
const PREPARED_TEXTS_MAX = 200;
function statementName(text: string): string | null {
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
 * Statements on the PostgreSQL pool's connections, all in callbacks: the connection goes back to the pool the moment
 * its answer is read, and the caller's promise is the only one made. A named one is pg's named query (prepared once
 * per connection by pg, then only bound and executed: PostgreSQL plans the list query in about three times as long
 * as it runs it). A statement that fails leaves its connection usable (released without the error, as Kysely does);
 * a broken connection is dropped by the pool. Its time goes to the observer.
 */
export function pgRunner(pool: pg.Pool, observe?: QueryObserver): DirectRunner {
  return <R>(text: string, values: unknown[], name: string | null) =>
    new Promise<R[]>((resolve, reject) => {
      const started = performance.now();
      pool.connect((connectError, client, release) => {
        if (connectError || !client) return reject(connectError ?? new Error('No database connection'));
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

/** Statements on the embedded database's session, in their turn (the dialect's lock), named ones kept parsed. */
export function embeddedRunner(thread: EmbeddedThread, lock: SessionLock, observe?: QueryObserver): DirectRunner {
  return async <R>(text: string, values: unknown[], name: string | null) => {
    await lock.acquire('statement');
    const started = performance.now();
    let failed = true;
    try {
      const { rows } = await thread.query<R>(text, values, name ?? undefined);
      failed = false;
      return rows;
    } finally {
      lock.release('statement');
      observe?.(performance.now() - started, text, failed);
    }
  };
}
