// The embedded database opened in a thread of its own (db/pglite-thread.mjs): PGlite's queries run beside the HTTP
// thread instead of on it. The dialect's lock still hands the one session to one holder at a time.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
// pg's own reader of the wire protocol (the class its connections use; the package exports its dist files).
import { Parser } from 'pg-protocol/dist/parser.js';
import type { BackendMessage, DatabaseError } from 'pg-protocol/dist/messages.js';
import { types } from '@electric-sql/pglite';
import type { EmbeddedSession, SessionResult } from './pglite-dialect';
import type { Columns } from './arrayRows';

// Built, the thread is dist/pglite-thread.js beside main.js; from source, the .mjs beside this file.
const built = new URL('./pglite-thread.js', import.meta.url);
const threadFile = existsSync(fileURLToPath(built)) ? built : new URL('./pglite-thread.mjs', import.meta.url);

type Answer = {
  id: number;
  rows?: unknown[];
  /** With `rows` as arrays of values: the column names. */
  names?: string[];
  /** A prepared statement's answer as the server's wire protocol bytes (read here, see columnsOfWire). */
  raw?: Uint8Array;
  affectedRows?: number;
  results?: SessionResult<unknown>[];
  bytes?: Uint8Array;
  error?: Record<string, unknown>;
};

/** An error from the thread, with PostgreSQL's fields (code, detail...) back on it, as PGlite threw it. */
function revive(e: Record<string, unknown>): Error {
  return Object.assign(new Error(String(e.message)), e);
}

/** The embedded database's own parsers (pglite-thread.mjs opens it with these): bigint columns as numbers. */
export const EMBEDDED_PARSERS = { 20: (v: string) => Number(v) };

/**
 * The columns of an answer in the server's wire protocol (RowDescription, DataRows, CommandComplete or an
 * ErrorResponse), read with pg's parser and each value turned by PGlite's own type parsers, so the values are what
 * PGlite's query gives; an error is thrown with PostgreSQL's fields (code, detail...) on it.
 */
export function columnsOfWire(bytes: Uint8Array): Columns & { affectedRows?: number } {
  let names: string[] = [];
  let oids: number[] = [];
  const rows: unknown[][] = [];
  let affectedRows: number | undefined;
  let error: DatabaseError | undefined;
  new Parser().parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), (m: BackendMessage) => {
    if (m.name === 'rowDescription') {
      const { fields } = m as unknown as { fields: Array<{ name: string; dataTypeID: number }> };
      names = fields.map((f) => f.name);
      oids = fields.map((f) => f.dataTypeID);
    } else if (m.name === 'dataRow') {
      const { fields } = m as unknown as { fields: Array<string | null> };
      rows.push(fields.map((v, i) => types.parseType(v, oids[i], EMBEDDED_PARSERS)));
    } else if (m.name === 'commandComplete') {
      // "UPDATE 3", "INSERT 0 1", "SELECT 100": the count is the last word.
      const count = Number((m as unknown as { text: string }).text.split(' ').pop());
      if (Number.isFinite(count)) affectedRows = count;
    } else if (m.name === 'error') {
      error ??= m as DatabaseError;
    }
  });
  if (error) throw error;
  return { names, rows, affectedRows };
}

/** Rows from arrays of values and their column names (a later column of the same name wins, as in objects). */
function objects<R>(names: string[], rows: unknown[][]): R[] {
  const out = new Array<R>(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    const o: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) o[names[i]] = row[i];
    out[r] = o as R;
  }
  return out;
}

export class EmbeddedThread implements EmbeddedSession {
  private readonly pending = new Map<number, { resolve: (a: Answer) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  closed = false;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (a: Answer) => {
      const p = this.pending.get(a.id);
      if (!p) return;
      this.pending.delete(a.id);
      if (a.error) p.reject(revive(a.error));
      else p.resolve(a);
    });
    // A thread that dies takes every waiting query with it, each told why.
    const fail = (err: Error) => {
      this.closed = true;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`The embedded database stopped (thread exit ${code}).`)));
  }

  /** Opens the database in `dir` in a new thread; rejects with PGlite's own error when it cannot. */
  static open(dir: string): Promise<EmbeddedThread> {
    const worker = new Worker(threadFile, { workerData: { dir } });
    return new Promise((resolve, reject) => {
      const early = (err: Error) => reject(err);
      worker.once('error', early);
      worker.once('message', (m: { ready: boolean; error?: Record<string, unknown> }) => {
        worker.off('error', early);
        if (m.ready) return resolve(new EmbeddedThread(worker));
        void worker.terminate();
        reject(revive(m.error ?? { message: 'The embedded database could not be opened.' }));
      });
    });
  }

  private send(op: 'query' | 'exec' | 'dump' | 'close', sql?: string, params?: unknown[], name?: string): Promise<Answer> {
    if (this.closed) return Promise.reject(new Error('The embedded database is closed.'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, op, sql, params, name });
    });
  }

  /** A statement with its values bound to its $n parameters; named, it is parsed once in the session and kept. */
  async query<R>(sql: string, params: unknown[] = [], name?: string): Promise<SessionResult<R>> {
    const { names, rows, affectedRows } = await this.columns(sql, params, name);
    return { rows: objects<R>(names, rows), affectedRows };
  }

  /** `query`'s answer as its column names and each row's values in their order (db/statements.ts reads them so). */
  async columns(sql: string, params: unknown[] = [], name?: string): Promise<Columns & { affectedRows?: number }> {
    const a = await this.send('query', sql, params, name);
    if (a.raw) return columnsOfWire(a.raw);
    return { names: a.names ?? [], rows: (a.rows ?? []) as unknown[][], affectedRows: a.affectedRows };
  }

  async exec(sql: string): Promise<SessionResult<unknown>[]> {
    return (await this.send('exec', sql)).results ?? [];
  }

  /** The data folder as PGlite's tar (admin backup); call it holding the session, between transactions. */
  async dump(): Promise<Blob> {
    const a = await this.send('dump');
    return new Blob([a.bytes as Uint8Array<ArrayBuffer>]);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.send('close');
    this.closed = true;
    // PGlite has closed its files: nothing is left for the thread to finish.
    await this.worker.terminate();
  }
}
