// The worker's engine: runs several jobs at once (slots), claims them from the database fairly across clients (FOR
// UPDATE SKIP LOCKED), runs each in a process of its own under a time and memory limit, keeps a short lease while it
// works (so a dead worker's jobs move to another within a lease), and after a crash retries a job once before
// failing its subject with a message. Stopping puts unfinished jobs back in the queue. What each kind of job does
// is its handler in jobs/.
import { hostname } from 'node:os';
import { sql, type Kysely, type Updateable } from 'kysely';
import { extensionOf } from '@portal/core';
import { keepWarm, Overrun, runProcessing, Stopped, type Args, type Fn, type Result } from './run-processing';
import type { RunEventWriter } from './events';
import type { DB, JobTable } from '../db/schema';
import { sweepStorage, type Storage } from '../storage/index';
import { pruneAudit } from '../audit';
import type { JobKind, JobQueue, ProcessingKind } from './queue';
import type { MailDeps } from '../mail/outbox';
import { newId, now } from '../ids';
import { pruneRateLimits } from '../ratelimit';
import type { Config } from '../config';
import type { JobMetrics } from '../metrics';
import { JOBS, sentence, type Job, type JobContext, type Outcome } from './jobs/index';
import { failRun, type JobLog } from './jobs/job';
import type { TextEmbeddingSettings } from '../integrations/openai';
import { inRequest } from '../context';
import { pruneWebhooks, WebhookSender, type SenderOptions } from '../webhooks/sender';

export { CHANGED_MESSAGE, sentence } from './jobs/index';

export interface WorkerOptions {
  db: Kysely<DB>;
  storage: Storage;
  jobs: JobQueue;
  /** With `debug`, each job's start and outcome are logged at that level (LOG_LEVEL=debug). */
  log: JobLog & { debug?(obj: unknown, msg?: string): void };
  /** The embedded database has one process: every job left running at start was cut off by a crash. */
  exclusive: boolean;
  pollMs?: number;
  leaseS?: number;
  /** Jobs run at once (default 1). */
  slots?: number;
  /** Wall-clock seconds per job kind and resident memory per job. */
  limits?: { timeoutS: Record<ProcessingKind, number>; memoryMb: number };
  /** Seconds stop() waits for running jobs before putting them back in the queue. */
  shutdownS?: number;
  /** Job outcomes, durations and lease takeovers (Prometheus). */
  metrics?: JobMetrics;
  /** How mail jobs send (retries of mails the API could not send at once); without it they wait for a worker that has it. */
  mail?: Omit<MailDeps, 'db' | 'jobs' | 'log'>;
  /** The provider and keys text-embedding requests use; without it they fail with a sentence. */
  textEmbeddings?: TextEmbeddingSettings;
  /** Webhook deliveries, sent beside the job slots with their own concurrency (webhooks/sender.ts). */
  webhooks?: Omit<SenderOptions, 'db' | 'log' | 'mail'>;
  /** Told of each error: a write refused for want of space is logged and counted there (true), and the job waits. */
  disk?: { noteIfFull(err: unknown): boolean };
  /** Seconds a job waits for disk space after a write of it found the disk full (default 30). */
  diskWaitS?: number;
}

export const DEFAULT_LIMITS: NonNullable<WorkerOptions['limits']> = {
  timeoutS: { analyze: 60, fit: 600, generate: 300, shrink: 60 },
  memoryMb: 1024,
};

export const CRASH_MESSAGE = 'Processing was interrupted twice, so it was stopped. Please try again or contact support.';
const MAX_ATTEMPTS = 2;
const JOB_RETENTION_S = 7 * 24 * 60 * 60;
const HOUSEKEEPING_MS = 10 * 60 * 1000;
/** A heartbeat at most this often (on the lease timer): readiness wants one within 30 s. */
const HEARTBEAT_MS = 5000;
/** A worker not seen for this long is dead (it beats every 5 s): its row goes at the next housekeeping. */
export const WORKER_FORGET_S = 10 * 60;

/** The worker's settings from the server configuration. */
export function workerSettings(c: Pick<Config, 'jobLeaseS' | 'jobTimeoutS' | 'jobMemoryMb' | 'workerSlots' | 'shutdownS'>) {
  return {
    leaseS: c.jobLeaseS,
    limits: { timeoutS: c.jobTimeoutS, memoryMb: c.jobMemoryMb },
    slots: c.workerSlots,
    shutdownS: c.shutdownS,
  };
}

/** A job stopped by its time or memory limit: it fails with its sentence (and counts as an overrun). */
class LimitExceeded extends Error {}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** What to tell the sender when a job went past a limit: what happened, and what to change. */
export function overrunMessage(
  kind: ProcessingKind,
  limit: 'time' | 'memory',
  limits: NonNullable<WorkerOptions['limits']>,
  fileName = '',
): string {
  const past = limit === 'time' ? `took longer than ${limits.timeoutS[kind]} s` : `needed more than ${limits.memoryMb} MB of memory`;
  const ext = extensionOf(fileName) || 'data';
  switch (kind) {
    case 'analyze':
      return `The file ${past} to analyse. Check that it is a valid ${ext} file, or split it into smaller files.`;
    case 'fit':
      return `Training ${past}, the limit for one request. Train on a smaller data file or with fewer output columns.`;
    case 'generate':
      return `Generating embeddings ${past}, the limit for one request. Generate from a smaller data file.`;
    case 'shrink':
      return `The shrink report ${past}, the limit for one request. Check that the .py file is a valid model definition, or simplify the model.`;
  }
}

export class Worker {
  private running = false;
  private loops: Promise<void>[] = [];
  private readonly waiting = new Set<() => void>();
  private unsubscribe: (() => void) | null = null;
  private recoverTimer: NodeJS.Timeout | null = null;
  private readonly pollMs: number;
  private readonly leaseS: number;
  private readonly slots: number;
  private readonly limits: NonNullable<WorkerOptions['limits']>;
  private readonly shutdownS: number;
  /** This worker's name on the jobs it holds. */
  readonly id = newId('w_');
  /** Slots of the configured number running a job (the newcomers' slot waits until they all are). */
  private generalBusy = 0;
  /** Jobs running now, each with the switch that stops its processing. */
  private readonly active = new Map<number, AbortController>();
  private webhooks: WebhookSender | null = null;

  constructor(private readonly o: WorkerOptions) {
    this.pollMs = o.pollMs ?? 500;
    this.leaseS = o.leaseS ?? 8;
    this.slots = Math.max(1, Math.floor(o.slots ?? 1));
    this.limits = o.limits ?? DEFAULT_LIMITS;
    this.shutdownS = o.shutdownS ?? 20;
  }

  async start(): Promise<void> {
    await this.beat(true);
    await this.recover(this.o.exclusive);
    await this.housekeep().catch((err) => this.o.log.error({ err }, 'Housekeeping failed; it runs again later'));
    this.running = true;
    this.coolDown = await keepWarm(this.slots + 1, this.limits.memoryMb);
    if (this.o.webhooks) {
      const { mail, jobs, db, log } = this.o;
      this.webhooks = new WebhookSender({ ...this.o.webhooks, db, log, mail: mail && { ...mail, jobs } });
      this.webhooks.start();
    }
    this.unsubscribe = this.o.jobs.onWake(() => {
      this.wakeAll();
      this.webhooks?.wake();
    });
    this.recoverTimer = setInterval(() => {
      if (Date.now() - this.lastBeat >= HEARTBEAT_MS)
        void this.beat(false).catch((err) => this.o.log.error({ err }, 'Could not record the worker heartbeat'));
      if (!this.o.exclusive)
        void this.recover(false).catch((err) => this.o.log.error({ err }, 'Could not recover the jobs of stopped workers'));
      if (Date.now() - this.lastHousekeeping > HOUSEKEEPING_MS)
        void this.housekeep().catch((err) => this.o.log.error({ err }, 'Housekeeping failed; it runs again later'));
    }, this.leaseS * 1000);
    // One slot more than configured, kept for newcomers: it only takes a job of a client with nothing running
    // while every other slot is busy, so a client that fills the worker never makes another client's first job wait.
    this.loops = [...Array.from({ length: this.slots }, () => this.run(false)), this.run(true)];
  }

  private lastHousekeeping = 0;
  private lastBeat = 0;
  private coolDown: (() => void) | null = null;

  /** Records that this worker is alive (readiness looks for a heartbeat within 30 s). */
  private async beat(first: boolean): Promise<void> {
    this.lastBeat = Date.now();
    const t = now();
    if (first) {
      await this.o.db
        .insertInto('workers')
        .values({ id: this.id, host: hostname(), pid: process.pid, slots: this.slots, started_at: t, seen_at: t })
        .onConflict((oc) => oc.column('id').doUpdateSet({ seen_at: t }))
        .execute();
    } else await this.o.db.updateTable('workers').set({ seen_at: t }).where('id', '=', this.id).execute();
  }

  /** Drops finished jobs after a week and spent or expired reset tokens, so the tables do not grow forever. */
  async housekeep(): Promise<void> {
    this.lastHousekeeping = Date.now();
    const t = now();
    await this.o.db
      .deleteFrom('jobs')
      .where('state', 'in', ['done', 'failed'])
      .where('created_at', '<', t - JOB_RETENTION_S)
      .execute();
    await this.o.db
      .deleteFrom('reset_tokens')
      .where('expires_at', '<', t - 24 * 60 * 60)
      .execute();
    await this.o.db
      .deleteFrom('workers')
      .where('seen_at', '<', t - WORKER_FORGET_S)
      .execute();
    await this.o.db
      .deleteFrom('mails')
      .where('sent_at', '<', t - 24 * 60 * 60)
      .execute();
    await pruneRateLimits(this.o.db);
    await pruneAudit(this.o.db, t);
    await pruneWebhooks(this.o.db, t);
    await sweepStorage(this.o.db, this.o.storage, t);
  }

  /**
   * Stops taking jobs and waits up to the shutdown deadline for running ones; those still running then are
   * stopped and put back in the queue (the attempt does not count), so another worker takes them.
   */
  async stop(): Promise<void> {
    this.running = false;
    this.unsubscribe?.();
    if (this.recoverTimer) clearInterval(this.recoverTimer);
    this.wakeAll();
    const all = Promise.all(this.loops);
    let timer: NodeJS.Timeout | undefined;
    const late = await Promise.race([
      all.then(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), this.shutdownS * 1000))),
    ]);
    clearTimeout(timer);
    if (late) {
      this.o.log.info(`Stopping: ${this.active.size} unfinished job(s) go back to the queue`);
      for (const c of this.active.values()) c.abort();
    }
    await all;
    await this.webhooks?.stop();
    this.coolDown?.();
    // Gone at once from readiness's view, rather than when its heartbeat ages out.
    await this.o.db
      .deleteFrom('workers')
      .where('id', '=', this.id)
      .execute()
      .catch((err) => this.o.log.error({ err }, 'Could not remove the worker heartbeat'));
  }

  private wakeAll(): void {
    for (const wake of this.waiting) wake();
  }

  private async run(newcomers: boolean): Promise<void> {
    while (this.running) {
      let worked = false;
      try {
        worked = await this.runOnce(newcomers);
      } catch (err) {
        this.o.log.error({ err }, 'The worker could not take a job');
      }
      if (!worked && this.running) {
        await new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(t);
            this.waiting.delete(wake);
            resolve();
          };
          const t = setTimeout(wake, this.pollMs);
          this.waiting.add(wake);
        });
      }
    }
  }

  /** Jobs left running by a dead worker go back to the queue once; a second time, their subject fails. */
  async recover(all: boolean): Promise<void> {
    const t = now();
    let q = this.o.db.selectFrom('jobs').selectAll().where('state', '=', 'running');
    if (!all) q = q.where('locked_until', '<', t);
    for (const job of await q.execute()) {
      // Each change is conditional on the job still being the one read, so two workers recovering at once act once.
      const still = (values: Updateable<JobTable>) =>
        this.o.db
          .updateTable('jobs')
          .set(values)
          .where('id', '=', job.id)
          .where('state', '=', 'running')
          .where('attempts', '=', job.attempts)
          .where((eb) => (job.owner === null ? eb('owner', 'is', null) : eb('owner', '=', job.owner)))
          .executeTakeFirst();
      if (job.attempts >= MAX_ATTEMPTS) {
        const failed = await still({ state: 'failed', error: CRASH_MESSAGE, locked_until: null, owner: null });
        if (!failed.numUpdatedRows) continue;
        await this.failSubject(job, CRASH_MESSAGE);
        this.o.log.info(`Job ${job.kind} ${job.ref} failed after an interruption`);
      } else {
        const back = await still({ state: 'queued', locked_until: null, run_after: t, owner: null });
        if (back.numUpdatedRows) this.o.metrics?.leaseTakeovers.inc();
        if (back.numUpdatedRows) this.o.log.info(`Job ${job.kind} ${job.ref} was interrupted and is queued again`);
      }
    }
  }

  /**
   * Takes the next job: first any job whose worker's lease ran out goes back to the queue (so a dead worker's
   * jobs move on at the next claim, not at a timer), then the oldest ready job of the client with the fewest
   * jobs running and, among those, of the client served longest ago (round robin), so one client's queue never
   * holds another client's first job behind it for more than the job already running.
   */
  async claim(newcomers = false): Promise<Job | undefined> {
    if (newcomers && this.generalBusy < this.slots) return undefined;
    await this.recover(false);
    const t = now();
    const result = await sql<Job>`
      update jobs set state = 'running', attempts = attempts + 1, locked_until = ${t + this.leaseS}, owner = ${this.id}, started_at = ${Date.now()}
      where id = (
        select q.id from jobs q
        where q.state = 'queued' and q.run_after <= ${t}
          and (${!newcomers} or not exists (select 1 from jobs r where r.state = 'running' and r.client is not distinct from q.client))
        order by
          (select count(*) from jobs r where r.state = 'running' and r.client is not distinct from q.client),
          (select max(r.started_at) from jobs r where r.client is not distinct from q.client) nulls first,
          q.id
        limit 1 for update skip locked
      )
      returning *`.execute(this.o.db);
    return result.rows[0];
  }

  /** Changes to a job this worker holds; nothing happens if its lease was taken over meanwhile. */
  private mine(job: Job) {
    return this.o.db.updateTable('jobs').where('id', '=', job.id).where('owner', '=', this.id).where('state', '=', 'running');
  }

  /** Claims and runs one job; false when the queue had nothing ready. */
  async runOnce(newcomers = false): Promise<boolean> {
    const job = await this.claim(newcomers);
    if (!job) return false;
    if (!newcomers) this.generalBusy++;
    try {
      await this.runClaimed(job);
    } finally {
      if (!newcomers) this.generalBusy--;
    }
    return true;
  }

  private async runClaimed(job: Job): Promise<void> {
    const stop = new AbortController();
    this.active.set(job.id, stop);
    const beat = setInterval(
      () => {
        void this.mine(job)
          .set({ locked_until: now() + this.leaseS })
          .executeTakeFirst()
          .then((r) => {
            if (r.numUpdatedRows) return;
            // Another worker took the job over (this one was too slow to renew): stop, so it is not done twice.
            this.o.log.error(
              { job: job.id, reqId: job.request_id },
              `Job ${job.kind} ${job.ref}: lease lost to another worker; stopping it here`,
            );
            stop.abort();
          })
          .catch((err) =>
            this.o.log.error({ err, job: job.id, reqId: job.request_id }, `Job ${job.kind} ${job.ref}: could not renew its lease`),
          );
      },
      (this.leaseS * 1000) / 3,
    );
    const started = process.hrtime.bigint();
    const settled = (outcome: string) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      this.o.metrics?.jobs.inc({ kind: job.kind, outcome });
      this.o.metrics?.jobSeconds.observe({ kind: job.kind }, seconds);
      this.o.log.debug?.(
        { job: job.id, reqId: job.request_id, outcome, ms: Math.round(seconds * 1000) },
        `Job ${job.kind} ${job.ref}: ${outcome}`,
      );
    };
    this.o.log.debug?.({ job: job.id, reqId: job.request_id, attempt: job.attempts }, `Job ${job.kind} ${job.ref}: started`);
    try {
      // Under the request that queued it: its events and the jobs it queues name that request, and at
      // LOG_LEVEL=debug so do its queries' lines.
      const outcome = await inRequest(job.request_id, () => this.handle(job, stop.signal));
      settled(outcome === 'done' ? 'done' : 'waiting');
      if (outcome === 'done') {
        await this.mine(job).set({ state: 'done', locked_until: null, owner: null }).execute();
      } else {
        // Waiting is not an attempt: only crashes count towards the retry limit.
        await this.mine(job)
          .set({ state: 'queued', locked_until: null, owner: null, run_after: now() + outcome.waitS, attempts: job.attempts - 1 })
          .execute();
      }
    } catch (err) {
      const full = !(err instanceof Stopped) && !(err instanceof LimitExceeded) && !!this.o.disk?.noteIfFull(err);
      settled(err instanceof Stopped ? 'requeued' : err instanceof LimitExceeded ? 'overrun' : full ? 'waiting' : 'failed');
      if (full) {
        // A full disk is not the job's fault: it goes back to the queue, the attempt not counted, and is taken again
        // once the wait is over (if the database cannot take even that, the lease runs out and it is recovered).
        const waitS = this.o.diskWaitS ?? 30;
        await this.mine(job)
          .set({ state: 'queued', locked_until: null, owner: null, run_after: now() + waitS, attempts: job.attempts - 1 })
          .execute()
          .then(() => this.o.log.info(`Job ${job.kind} ${job.ref} waits ${waitS} s for disk space`))
          .catch((e) => this.o.log.error({ err: e, job: job.id }, `Job ${job.kind} ${job.ref}: could not put it back in the queue`));
      } else if (err instanceof Stopped) {
        // Stopped from here (shutdown): not the job's fault, and not a crash, so the attempt does not count.
        await this.mine(job)
          .set({ state: 'queued', locked_until: null, owner: null, run_after: now(), attempts: job.attempts - 1 })
          .execute();
        this.o.log.info(`Job ${job.kind} ${job.ref} was put back in the queue`);
      } else {
        const message = sentence(errorText(err));
        this.o.log.error({ err, job: job.id, reqId: job.request_id }, `Job ${job.kind} ${job.ref} failed`);
        const failed = await this.mine(job).set({ state: 'failed', error: message, locked_until: null, owner: null }).executeTakeFirst();
        if (failed.numUpdatedRows) await this.failSubject(job, message);
      }
    } finally {
      clearInterval(beat);
      this.active.delete(job.id);
    }
  }

  /** What a handler is given for one job: the worker's services, the job's stop switch, and processing under limits. */
  private context(signal: AbortSignal, requestId: string | null): JobContext {
    const { db, storage, jobs, log, mail } = this.o;
    const limits = this.limits;
    return {
      db,
      storage,
      jobs,
      log,
      mail,
      signal,
      requestId,
      async process<F extends Fn>(
        kind: ProcessingKind,
        fileName: string,
        events: RunEventWriter | undefined,
        fn: F,
        ...args: Args<F>
      ): Promise<Result<F>> {
        try {
          return await runProcessing(fn, args, { timeoutS: limits.timeoutS[kind], memoryMb: limits.memoryMb }, signal, events?.push);
        } catch (err) {
          if (err instanceof Overrun) throw new LimitExceeded(overrunMessage(kind, err.limit, limits, fileName));
          throw err;
        }
      },
      textEmbeddings: this.o.textEmbeddings,
      async withinLimit<T>(
        kind: ProcessingKind,
        fileName: string,
        work: (signal: AbortSignal) => Promise<T>,
        overrun?: (limitS: number) => string,
      ): Promise<T> {
        // A controller and a timer of its own, cleared at the end: the limit always fires (a signal combined from
        // AbortSignal.timeout can be collected before it fires).
        const limit = new AbortController();
        const timer = setTimeout(() => limit.abort(new Error('time limit')), limits.timeoutS[kind] * 1000);
        const stop = () => limit.abort(signal.reason);
        if (signal.aborted) stop();
        else signal.addEventListener('abort', stop, { once: true });
        try {
          return await work(limit.signal);
        } catch (err) {
          if (signal.aborted) throw new Stopped();
          if (limit.signal.aborted)
            throw new LimitExceeded(overrun?.(limits.timeoutS[kind]) ?? overrunMessage(kind, 'time', limits, fileName));
          throw err;
        } finally {
          clearTimeout(timer);
          signal.removeEventListener('abort', stop);
        }
      },
    };
  }

  private async failSubject(job: Job, message: string): Promise<void> {
    const fail = JOBS[job.kind as JobKind]?.fail ?? failRun;
    await fail(this.o.db, job.ref, message);
  }

  private handle(job: Job, signal: AbortSignal): Promise<Outcome> {
    const handler = JOBS[job.kind as JobKind];
    if (!handler) throw new Error(`Unknown job kind ${job.kind}`);
    return handler.run(this.context(signal, job.request_id), job.ref);
  }
}
