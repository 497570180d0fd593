// The job queue, kept in the database so any number of worker processes can share it.
import { currentRequestId } from '../context';
import { EventEmitter } from 'node:events';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { newJobRow } from '../db/rows';
import { now } from '../ids';

/** Jobs that run a processing call in a process of their own, under the limits of their kind. */
export type ProcessingKind = 'analyze' | 'fit' | 'generate' | 'shrink';
export type JobKind = ProcessingKind | 'mail';

export class JobQueue {
  private readonly events = new EventEmitter();

  /**
   * Adds a job; pass the transaction that changes the job's subject so both commit together, and the id of the
   * request that queues it (its log lines and the run's events name that request).
   */
  async enqueue(db: Kysely<DB>, kind: JobKind, ref: string, opts: { delayS?: number; requestId?: string | null } = {}): Promise<void> {
    const { delayS = 0 } = opts;
    const t = now();
    // The job's client is read from its subject here, so every caller gets fair scheduling without passing it.
    const client =
      kind === 'mail'
        ? null
        : kind === 'analyze'
          ? sql<
              string | null
            >`(select b.client from uploads u join rends r on r.stamp = u.rend join buckets b on b.stamp = r.bucket where u.stamp = ${ref})`
          : sql<string | null>`(select b.client from runs r join buckets b on b.stamp = r.bucket where r.stamp = ${ref})`;
    const requestId = opts.requestId ?? currentRequestId();
    await db
      .insertInto('jobs')
      .values({ ...newJobRow({ kind, ref, run_after: t + delayS, created_at: t, request_id: requestId }), client })
      .execute();
    // A run's events written before its job existed (Pending, at its insert in this transaction) name the request too.
    if (requestId && kind !== 'analyze' && kind !== 'mail') {
      await db.updateTable('run_events').set({ request_id: requestId }).where('run', '=', ref).where('request_id', 'is', null).execute();
    }
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
