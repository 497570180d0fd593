// A run's event log as the worker writes it: events from the processing process are buffered and written in one
// insert at most once a second, so training never waits for the database.
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import type { ProcessingEvent } from '../processing/index';
import { now } from '../ids';

/** Writes at most this often while a run works. */
export const EVENT_FLUSH_MS = 1000;
/** More events than this from one processing call are dropped (processing throttles itself far below it). */
const MAX_EVENTS_PER_RUN = 5000;
const MAX_MESSAGE = 1000;

export class RunEventWriter {
  private pending: Array<{ run: string; at: number; kind: string; message: string; data: string | null; request_id: string | null }> = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private count = 0;
  constructor(
    private readonly db: Kysely<DB>,
    private readonly run: string,
    private readonly log: { error(obj: unknown, msg?: string): void },
    /** The request that queued the run's job (every event names it). */
    private readonly requestId: string | null = null,
  ) {}

  /** Keeps one event for the next write. */
  push = (event: ProcessingEvent): void => {
    if (++this.count > MAX_EVENTS_PER_RUN) return;
    this.pending.push({
      run: this.run,
      at: now(),
      kind: event.kind,
      message: event.message.slice(0, MAX_MESSAGE),
      data: event.data ? JSON.stringify(event.data) : null,
      request_id: this.requestId,
    });
    this.timer ??= setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, EVENT_FLUSH_MS);
  };

  /** Writes what is buffered (after any write under way, so events keep their order). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const rows = this.pending.splice(0);
    if (rows.length) {
      this.writing = this.writing.then(() =>
        this.db
          .insertInto('run_events')
          .values(rows)
          .execute()
          .then(
            () => undefined,
            (err: unknown) => this.log.error({ err, run: this.run }, `Run ${this.run}: ${rows.length} event(s) could not be written`),
          ),
      );
    }
    return this.writing;
  }
}
