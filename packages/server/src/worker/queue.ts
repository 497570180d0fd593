// The job queue, kept in the database so any number of worker processes can share it.
import { EventEmitter } from 'node:events';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { now } from '../ids';

export type JobKind = 'analyze' | 'fit' | 'generate' | 'shrink';

export class JobQueue {
  private readonly events = new EventEmitter();

  /** Adds a job; pass the transaction that changes the job's subject so both commit together. */
  async enqueue(db: Kysely<DB>, kind: JobKind, ref: string): Promise<void> {
    const t = now();
    await db.insertInto('jobs').values({ kind, ref, state: 'queued', attempts: 0, run_after: t, locked_until: null, error: null, created_at: t }).execute();
  }

  /** Tells an in-process worker that a job is waiting, so it does not wait for its next poll. */
  wake(): void {
    this.events.emit('wake');
  }

  onWake(fn: () => void): () => void {
    this.events.on('wake', fn);
    return () => this.events.off('wake', fn);
  }
}
