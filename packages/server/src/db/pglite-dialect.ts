// Kysely dialect over PGlite: one embedded session, shared by statements and held alone by a transaction (SessionLock).
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';

export interface SessionResult<R> {
  rows: R[];
  affectedRows?: number;
}

/** What the dialect needs of the embedded database: PGlite itself, or PGlite in its own thread (embedded-thread.ts). */
export interface EmbeddedSession {
  query<R>(sql: string, params?: unknown[]): Promise<SessionResult<R>>;
  exec(sql: string): Promise<SessionResult<unknown>[]>;
  close(): Promise<void>;
  readonly closed: boolean;
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pg: EmbeddedSession) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    if (compiled.parameters.length === 0 && compiled.query.kind === 'RawNode') {
      // Raw SQL without parameters may hold several statements (migrations): the simple protocol runs them all.
      const results = await this.pg.exec(compiled.sql);
      return { rows: (results.at(-1)?.rows ?? []) as R[] };
    }
    const result = await this.pg.query<R>(compiled.sql, compiled.parameters as unknown[]);
    const affected = result.affectedRows;
    return {
      rows: result.rows,
      ...(affected !== undefined && compiled.query.kind !== 'SelectQueryNode' ? { numAffectedRows: BigInt(affected) } : {}),
    };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming is not supported by the embedded database.');
  }
}

type Hold = 'statement' | 'session';

/**
 * Who may use PGlite's one session, first come first served. Statements outside a transaction (each commits on its
 * own) may be many at once: they are sent to the database's thread as they come and run there one after another,
 * so the thread always has the next one while the HTTP thread works on the last answer. A transaction, or anything
 * else that needs the session to itself, waits for the statements in flight and holds the session until it is done;
 * statements that come meanwhile wait behind it.
 */
export class SessionLock {
  private statements = 0;
  private session = false;
  private readonly waiting: Array<{ hold: Hold; grant: () => void }> = [];

  acquire(hold: Hold): Promise<void> {
    if (!this.waiting.length && this.free(hold)) {
      this.take(hold);
      return Promise.resolve();
    }
    return new Promise((grant) => this.waiting.push({ hold, grant }));
  }

  release(hold: Hold): void {
    if (hold === 'statement') this.statements--;
    else this.session = false;
    while (this.waiting.length && this.free(this.waiting[0].hold)) {
      const next = this.waiting.shift()!;
      this.take(next.hold);
      next.grant();
    }
  }

  /** Runs `work` holding the session alone (a backup's checkpoint and copy). */
  async alone<T>(work: () => Promise<T>): Promise<T> {
    await this.acquire('session');
    try {
      return await work();
    } finally {
      this.release('session');
    }
  }

  private free(hold: Hold): boolean {
    return !this.session && (hold === 'statement' || this.statements === 0);
  }

  private take(hold: Hold): void {
    if (hold === 'statement') this.statements++;
    else this.session = true;
  }
}

class PGliteDriver implements Driver {
  /** What each connection handed out holds now: a statement's turn, or the session (in a transaction). */
  private readonly holds = new Map<DatabaseConnection, Hold>();

  constructor(
    private readonly pg: EmbeddedSession,
    private readonly lock: SessionLock,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.lock.acquire('statement');
    // One connection object per holder, all on the one session; the map remembers what each holds.
    const conn = new PGliteConnection(this.pg);
    this.holds.set(conn, 'statement');
    return conn;
  }

  async beginTransaction(conn: DatabaseConnection): Promise<void> {
    // Nothing has run on this connection yet: its statement turn becomes a wait for the session to itself.
    this.lock.release('statement');
    this.holds.delete(conn);
    await this.lock.acquire('session');
    this.holds.set(conn, 'session');
    await conn.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(conn: DatabaseConnection): Promise<void> {
    const hold = this.holds.get(conn);
    this.holds.delete(conn);
    if (hold) this.lock.release(hold);
  }

  async destroy(): Promise<void> {
    if (!this.pg.closed) await this.pg.close();
  }
}

export class PGliteDialect implements Dialect {
  /** The one session's lock, shared with callers that need the session alone (db/index.ts's snapshot). */
  readonly lock = new SessionLock();
  constructor(private readonly pg: EmbeddedSession) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pg, this.lock);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  createIntrospector(db: Kysely<any>) {
    return new PostgresIntrospector(db);
  }
}
