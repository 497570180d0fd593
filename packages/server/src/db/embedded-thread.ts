// The embedded database opened in a thread of its own (db/pglite-thread.mjs): PGlite's queries run beside the HTTP
// thread instead of on it. The dialect's lock still hands the one session to one holder at a time.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { EmbeddedSession, SessionResult } from './pglite-dialect';

// Built, the thread is dist/pglite-thread.js beside main.js; from source, the .mjs beside this file.
const built = new URL('./pglite-thread.js', import.meta.url);
const threadFile = existsSync(fileURLToPath(built)) ? built : new URL('./pglite-thread.mjs', import.meta.url);

type Answer = {
  id: number;
  rows?: unknown[];
  /** With `rows` as arrays of values: the column names. */
  names?: string[];
  affectedRows?: number;
  results?: SessionResult<unknown>[];
  bytes?: Uint8Array;
  error?: Record<string, unknown>;
};

/** An error from the thread, with PostgreSQL's fields (code, detail...) back on it, as PGlite threw it. */
function revive(e: Record<string, unknown>): Error {
  return Object.assign(new Error(String(e.message)), e);
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

  private send(op: 'query' | 'exec' | 'dump' | 'close', sql?: string, params?: unknown[]): Promise<Answer> {
    if (this.closed) return Promise.reject(new Error('The embedded database is closed.'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, op, sql, params });
    });
  }

  async query<R>(sql: string, params: unknown[] = []): Promise<SessionResult<R>> {
    const a = await this.send('query', sql, params);
    return { rows: objects<R>(a.names ?? [], (a.rows ?? []) as unknown[][]), affectedRows: a.affectedRows };
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
