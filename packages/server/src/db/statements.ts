// The statements the hot paths run, and how they run: each compiled once and kept here (the one cache of statement
// texts and names), then run as a prepared statement through the driver's own API: pg's named queries on
// PostgreSQL, a statement parsed once in the session on the embedded database (pglite-thread.mjs). Values are
// always bound parameters.
import { CompiledQuery, DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, type Compilable } from 'kysely';
import type pg from 'pg';
import { rowsOf, type Columns } from './arrayRows';
import type { EmbeddedThread } from './embedded-thread';
import type { SessionLock } from './pglite-dialect';
import type { DB } from './schema';

/** Told of every query: its time, its text (parameters never), and whether it failed (metrics, debug logs). */
export type QueryObserver = (ms: number, sqlText: string, failed: boolean) => void;

/**
 * How a statement runs on a database's own connections, without Kysely's executor (its connection provider and
 * chain of promises per query: about 20 µs of the HTTP thread per project list, measured in bench/api's third
 * round). `name`: the statement's name, prepared once per connection; null runs it unnamed. The answer comes as
 * arrays of values (arrayRows.ts says why).
 */
type DirectRunner = (text: string, values: unknown[], name: string | null) => Promise<Columns>;
const directRunners = new WeakMap<Kysely<DB>, DirectRunner>();

/** The runner of a database opened by db/index.ts. */
export function directRunner(db: Kysely<DB>, runner: DirectRunner): void {
  directRunners.set(db, runner);
}

/**
 * A Kysely that only compiles (both databases speak PostgreSQL's SQL; its driver runs nothing): the statements are
 * built on it once, with Kysely's types from db/schema.ts, so a renamed column fails to compile.
 */
const compiler = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/** Where a call's value goes: the builder is handed these in place of the values, compiled to `$n` like any value. */
class Slot {
  constructor(readonly key: string) {}
}

/** A statement compiled once: its text, its name (null past the cap: it then runs unnamed) and its values' sources. */
export interface Statement<P, R> {
  readonly name: string | null;
  readonly sql: string;
  /** Each `$n`: a call's value by its key, or a value fixed when the statement was built. */
  readonly values: ReadonlyArray<Slot | { fixed: unknown }>;
  /** The types it was built with (never set). */
  readonly types?: [P, R];
}

/**
 * The statements built so far, by name and shape. A shape is what changes a statement's text (a page's order,
 * search and cursor): the shapes are fixed by the code, so the cache is bounded by it; past STATEMENTS_MAX (a shape
 * that would vary with its values) statements are built on each call and run unnamed, so a connection never holds
 * statements without bound.
 */
const statements = new Map<string, Statement<never, unknown>>();
const STATEMENTS_MAX = 200;

/**
 * The statement `name` of this `shape`, built by `build` the first time: `p` holds a stand-in for each value of a
 * call (its key, typed as the value), to be used wherever the value goes.
 */
export function statement<P extends object, R>(
  name: string,
  shape: string,
  build: (db: Kysely<DB>, p: P) => Compilable<R>,
): Statement<P, R> {
  const key = `${name}\n${shape}`;
  const known = statements.get(key);
  if (known) return known as unknown as Statement<P, R>;
  const slots = new Proxy({}, { get: (_, k) => new Slot(String(k)) }) as P;
  const compiled = build(compiler, slots).compile();
  const cached = statements.size < STATEMENTS_MAX;
  const made: Statement<P, R> = {
    name: cached ? `${name}_${statements.size}` : null,
    sql: compiled.sql,
    values: compiled.parameters.map((v) => (v instanceof Slot ? v : { fixed: v })),
  };
  if (cached) statements.set(key, made as unknown as Statement<never, unknown>);
  return made;
}

/**
 * A statement's rows for a call's values. Outside a transaction it goes to the database's own connection
 * (directRunner), prepared, and its rows read their columns from the driver's arrays (arrayRows.ts); in a transaction
 * (`trx` is its own Kysely) it runs through Kysely, unprepared, and its rows are plain objects. Both read by name.
 */
export async function run<P, R>(db: Kysely<DB>, s: Statement<P, R>, given: P): Promise<R[]> {
  const values = s.values.map((v) => (v instanceof Slot ? (given as Record<string, unknown>)[v.key] : v.fixed));
  const direct = directRunners.get(db);
  if (direct) return rowsOf<R>(await direct(s.sql, values, s.name));
  return (await db.executeQuery<R>(CompiledQuery.raw(s.sql, values))).rows;
}

/**
 * Statements on the PostgreSQL pool's connections, all in callbacks: the connection goes back to the pool the moment
 * its answer is read, and the caller's promise is the only one made. A named one is pg's named query (prepared once
 * per connection by pg, then only bound and executed: PostgreSQL plans the list query in about three times as long
 * as it runs it). A statement that fails leaves its connection usable (released without the error, as Kysely does);
 * a broken connection is dropped by the pool. Its time goes to the observer.
 */
export function pgRunner(pool: pg.Pool, observe?: QueryObserver): DirectRunner {
  return (text: string, values: unknown[], name: string | null) =>
    new Promise<Columns>((resolve, reject) => {
      const started = performance.now();
      pool.connect((connectError, client, release) => {
        if (connectError || !client) return reject(connectError ?? new Error('No database connection'));
        const config: pg.QueryArrayConfig = name ? { name, text, values, rowMode: 'array' } : { text, values, rowMode: 'array' };
        client.query(config, (error: Error | undefined, result: pg.QueryArrayResult) => {
          release();
          observe?.(performance.now() - started, text, !!error);
          if (error) reject(error);
          else resolve({ names: result.fields.map((f) => f.name), rows: result.rows });
        });
      });
    });
}

/** Statements on the embedded database's session, in their turn (the dialect's lock), named ones kept parsed. */
export function embeddedRunner(thread: EmbeddedThread, lock: SessionLock, observe?: QueryObserver): DirectRunner {
  return async (text: string, values: unknown[], name: string | null) => {
    await lock.acquire('statement');
    const started = performance.now();
    let failed = true;
    try {
      const answer = await thread.columns(text, values, name ?? undefined);
      failed = false;
      return answer;
    } finally {
      lock.release('statement');
      observe?.(performance.now() - started, text, failed);
    }
  };
}
