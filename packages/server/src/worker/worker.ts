// The worker: runs several jobs at once (slots), claims them from the database fairly across clients (FOR UPDATE
// SKIP LOCKED), runs each in a process of its own under a time and memory limit, keeps a short lease while it
// works (so a dead worker's jobs move to another within a lease), and after a crash retries a job once before
// failing its subject with a message. Stopping puts unfinished jobs back in the queue.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely, type Selectable, type Updateable } from 'kysely';
import { extensionOf, FitParam, PLAN_LIMITS, SHRINK_MAX_PARAMETERS, type PlanName } from '@portal/core';
import { sha256File } from '@portal/core/node';
import { keepWarm, Overrun, runProcessing, Stopped, type Args, type Fn, type Result } from './run-processing';
import type { DB, JobTable } from '../db/schema';
import { sweepStorage, type Storage } from '../storage/index';
import { pruneAudit } from '../audit';
import type { JobQueue, ProcessingKind } from './queue';
import { attemptMail, type MailDeps } from '../mail/outbox';
import { settleFlight, uploadKey } from '../uploads';
import { newId, now } from '../ids';
import { pruneRateLimits } from '../ratelimit';
import type { Config } from '../config';
import type { JobMetrics } from '../metrics';
import { RunEventWriter } from './events';
import { requestContext } from '../context';

type Job = Selectable<JobTable>;
type Outcome = 'done' | { waitS: number };

export interface WorkerOptions {
  db: Kysely<DB>;
  storage: Storage;
  jobs: JobQueue;
  log: { info(msg: string): void; error(obj: unknown, msg?: string): void; debug?(obj: unknown, msg?: string): void };
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
}

export const DEFAULT_LIMITS: NonNullable<WorkerOptions['limits']> = {
  timeoutS: { analyze: 60, fit: 600, generate: 300, shrink: 60 },
  memoryMb: 1024,
};

export const CRASH_MESSAGE = 'Processing was interrupted twice, so it was stopped. Please try again or contact support.';
export const CHANGED_MESSAGE = 'The stored file differs from the one registered (size or SHA-256 checksum): upload it again.';
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

/** A message for users: one sentence ending in a full stop. */
export function sentence(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim() || 'Processing failed.';
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

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

/** Fails unless the file at `path` has the size and SHA-256 registered for the upload. */
async function checkStored(path: string, item: { size: number; checksum: string }): Promise<void> {
  const size = (await stat(path)).size;
  if (size !== Number(item.size) || (await sha256File(path)) !== item.checksum) throw new Error(CHANGED_MESSAGE);
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
    this.unsubscribe = this.o.jobs.onWake(() => this.wakeAll());
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
      // Under the request that queued it: its queries' debug lines and the jobs it queues carry that request's id.
      const reqId = job.request_id;
      const outcome = await (reqId ? requestContext.run({ reqId }, () => this.handle(job, stop.signal)) : this.handle(job, stop.signal));
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
      settled(err instanceof Stopped ? 'requeued' : err instanceof LimitExceeded ? 'overrun' : 'failed');
      if (err instanceof Stopped) {
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

  /** Runs one processing call under this job kind's limits; an overrun becomes the sentence for the sender. */
  private async process<F extends Fn>(
    kind: ProcessingKind,
    fileName: string,
    signal: AbortSignal | { signal: AbortSignal; events: RunEventWriter },
    fn: F,
    ...args: Args<F>
  ): Promise<Result<F>> {
    const { signal: abort, events } = signal instanceof AbortSignal ? { signal, events: undefined } : signal;
    try {
      return await runProcessing(fn, args, { timeoutS: this.limits.timeoutS[kind], memoryMb: this.limits.memoryMb }, abort, events?.push);
    } catch (err) {
      if (err instanceof Overrun) throw new LimitExceeded(overrunMessage(kind, err.limit, this.limits, fileName));
      throw err;
    }
  }

  private async failSubject(job: Job, message: string): Promise<void> {
    const db = this.o.db;
    if (job.kind === 'mail') return;
    if (job.kind === 'analyze') {
      const item = await db
        .updateTable('uploads')
        .set({ state: 'Failed', proc: 2, meta_error: message, error: message })
        .where('stamp', '=', job.ref)
        .where('state', 'in', ['Pending', 'Preparing'])
        .returning('rend')
        .executeTakeFirst();
      if (item) await settleFlight(db, item.rend);
      return;
    }
    const run = await db
      .updateTable('runs')
      .set({ state: 'Failed', message })
      .where('stamp', '=', job.ref)
      .where('state', 'in', ['Pending', 'Processing'])
      .returning(['model', 'function'])
      .executeTakeFirst();
    if (run?.function === 'fit' && run.model) {
      await db.updateTable('models').set({ state: 'Failed', message }).where('stamp', '=', run.model).execute();
    }
  }

  private handle(job: Job, signal: AbortSignal): Promise<Outcome> {
    switch (job.kind) {
      case 'analyze':
        return this.analyze(job.ref, signal);
      case 'fit':
        return this.fit(job.ref, signal);
      case 'generate':
        return this.generate(job.ref, signal);
      case 'shrink':
        return this.shrink(job.ref, signal);
      case 'mail':
        return this.mail(job.ref);
      default:
        throw new Error(`Unknown job kind ${job.kind}`);
    }
  }

  /** A retry of a mail the API could not send at once: sent, retried later with backoff, or given up (logged). */
  private async mail(id: string): Promise<Outcome> {
    if (!this.o.mail) return { waitS: 60 };
    const r = await attemptMail({ ...this.o.mail, db: this.o.db, jobs: this.o.jobs, log: this.o.log }, id);
    return r.outcome === 'retry' ? { waitS: r.waitS } : 'done';
  }

  private async planOfRend(rend: string): Promise<PlanName> {
    const row = await this.o.db
      .selectFrom('rends')
      .innerJoin('buckets', 'buckets.stamp', 'rends.bucket')
      .innerJoin('clients', 'clients.stamp', 'buckets.client')
      .select('clients.plan')
      .where('rends.stamp', '=', rend)
      .executeTakeFirst();
    return row && row.plan in PLAN_LIMITS ? (row.plan as PlanName) : 'Individual';
  }

  private async analyze(stamp: string, signal: AbortSignal): Promise<Outcome> {
    const db = this.o.db;
    const item = await db.selectFrom('uploads').selectAll().where('stamp', '=', stamp).executeTakeFirst();
    if (!item || item.state !== 'Preparing') return 'done';
    const plan = await this.planOfRend(item.rend);
    const copy = await this.o.storage.localCopy(uploadKey(item.stamp));
    try {
      // The object store took the bytes directly from the client: check them here, before anything reads them.
      if (this.o.storage.kind !== 'local') await checkStored(copy.path, item);
      const limits = PLAN_LIMITS[plan];
      const a = await this.process('analyze', item.file_name, signal, 'analyzeFile', copy.path, item.file_name, {
        rows: limits.rows,
        inputColumns: limits.inputColumns,
        maxParameters: SHRINK_MAX_PARAMETERS,
      });
      const ok = a.proc === 1;
      const error = ok ? null : sentence(a.error ?? 'The file could not be read.');
      await db
        .updateTable('uploads')
        .set({ proc: a.proc, rows: a.rows, cols: a.cols, inputs: a.inputs, meta_error: error, error, state: ok ? 'Finished' : 'Failed' })
        .where('stamp', '=', item.stamp)
        .where('state', '=', 'Preparing')
        .execute();
    } finally {
      await copy.done();
    }
    await settleFlight(db, item.rend);
    return 'done';
  }

  /**
   * The first Finished file of the upload with this extension, as a local path, checked against the size and
   * SHA-256 registered for it: bytes changed in storage since they were analysed never reach a fit, generate or shrink.
   */
  private async dataFile(rend: string | null, ext: string, missing: string) {
    if (!rend) throw new Error(missing);
    const items = await this.o.db
      .selectFrom('uploads')
      .selectAll()
      .where('rend', '=', rend)
      .where('state', '=', 'Finished')
      .orderBy('created_at')
      .execute();
    const item = items.find((i) => extensionOf(i.file_name) === ext);
    if (!item) throw new Error(missing);
    const copy = await this.o.storage.localCopy(uploadKey(item.stamp));
    try {
      await checkStored(copy.path, item);
    } catch (err) {
      await copy.done();
      throw err;
    }
    return { ...copy, fileName: item.file_name };
  }

  private async startRun(stamp: string) {
    const run = await this.o.db.selectFrom('runs').selectAll().where('stamp', '=', stamp).executeTakeFirst();
    if (!run || (run.state !== 'Pending' && run.state !== 'Processing')) return null;
    return run;
  }

  private async setProcessing(stamp: string, model: string | null) {
    await this.o.db.updateTable('runs').set({ state: 'Processing' }).where('stamp', '=', stamp).execute();
    if (model) await this.o.db.updateTable('models').set({ state: 'Processing' }).where('stamp', '=', model).execute();
  }

  /** Runs `work` with a scratch file path, then stores that file as the run's result. */
  private async withResult(runStamp: string, work: (outPath: string) => Promise<void>): Promise<{ key: string; size: number }> {
    const dir = await mkdtemp(join(tmpdir(), 'portal-run-'));
    try {
      const out = join(dir, 'result.json');
      await work(out);
      const size = (await stat(out)).size;
      const key = `results/${runStamp}-${newId()}.json`;
      await this.o.storage.putFile(key, out);
      return { key, size };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  private async fit(stamp: string, signal: AbortSignal): Promise<Outcome> {
    const db = this.o.db;
    const run = await this.startRun(stamp);
    if (!run) return 'done';
    await this.setProcessing(stamp, run.model);
    const pile = run.pile ? await db.selectFrom('piles').select('param').where('stamp', '=', run.pile).executeTakeFirst() : undefined;
    const param = FitParam.parse(JSON.parse(pile?.param ?? 'null'));
    const data = await this.dataFile(run.rend, '.json', 'The upload has no processed .json data file to train on.');
    const events = new RunEventWriter(db, stamp, this.o.log);
    let fitted: Result<'fitModel'>;
    try {
      fitted = await this.process('fit', data.fileName, { signal, events }, 'fitModel', data.path, param, { seed: 1 });
    } finally {
      // Written before the run settles, so its log reads in order and a follower that stops at the last state saw them.
      await events.flush();
      await data.done();
    }
    const modelJson = JSON.stringify(fitted.model);
    const result = await this.withResult(stamp, async (out) => {
      const { writeFile } = await import('node:fs/promises');
      await writeFile(out, JSON.stringify({ summary: fitted.summary, importance: fitted.importance ?? null, model: fitted.model }));
    });
    await db.transaction().execute(async (trx) => {
      if (run.model) {
        await trx
          .updateTable('models')
          .set({ state: 'Finished', message: '', data: modelJson, desc: fitted.summary })
          .where('stamp', '=', run.model)
          .execute();
      }
      await trx.updateTable('runs').set({ state: 'Finished', message: '', result_key: result.key }).where('stamp', '=', stamp).execute();
    });
    return 'done';
  }

  private async generate(stamp: string, signal: AbortSignal): Promise<Outcome> {
    const db = this.o.db;
    const run = await this.startRun(stamp);
    if (!run) return 'done';
    // A request that trains its model waits for that training; a reused model (no fit run left) was Finished already.
    const fit = run.fit
      ? await db.selectFrom('runs').select(['state', 'model', 'message']).where('stamp', '=', run.fit).executeTakeFirst()
      : run.model
        ? { state: 'Finished', model: run.model, message: '' }
        : undefined;
    if (!fit) throw new Error('The model this request uses no longer exists.');
    if (fit.state === 'Pending' || fit.state === 'Processing') return { waitS: 1 };
    if (fit.state !== 'Finished')
      throw new Error(`The model this request uses failed to train, so no embeddings were generated: ${fit.message}`);
    await this.setProcessing(stamp, null);
    const model = fit.model
      ? await db.selectFrom('models').select(['stamp', 'bucket', 'data']).where('stamp', '=', fit.model).executeTakeFirst()
      : undefined;
    // A general model (no project) has no trained data: its embedding is a fixed projection named by its id.
    const applied = model && model.bucket === null ? { format: 'portal-general-projection', id: model.stamp } : model?.data;
    if (!applied) throw new Error('The model this request uses has no trained data.');
    const data = await this.dataFile(run.rend, '.json', 'File for generating not found.');
    const events = new RunEventWriter(db, stamp, this.o.log);
    let result: { key: string; size: number };
    try {
      result = await this.withResult(stamp, async (out) => {
        await this.process(
          'generate',
          data.fileName,
          { signal, events },
          'generateEmbeddings',
          typeof applied === 'string' ? JSON.parse(applied) : applied,
          data.path,
          out,
        );
      });
    } finally {
      await events.flush();
      await data.done();
    }
    await db.transaction().execute(async (trx) => {
      if (run.rend) {
        await trx
          .insertInto('boxes')
          .values({
            stamp: newId('x_'),
            rend: run.rend,
            run: stamp,
            name: `embeddings-${run.name}.json`,
            size: result.size,
            storage_key: result.key,
            created_at: now(),
          })
          .execute();
      }
      await trx.updateTable('runs').set({ state: 'Finished', message: '', result_key: result.key }).where('stamp', '=', stamp).execute();
    });
    return 'done';
  }

  private async shrink(stamp: string, signal: AbortSignal): Promise<Outcome> {
    const run = await this.startRun(stamp);
    if (!run) return 'done';
    await this.setProcessing(stamp, null);
    const py = await this.dataFile(run.rend, '.py', 'The upload has no processed .py model file.');
    let result: { key: string; size: number };
    try {
      result = await this.withResult(stamp, async (out) => {
        await this.process('shrink', py.fileName, signal, 'shrinkReport', py.path, out);
      });
    } finally {
      await py.done();
    }
    await this.o.db
      .updateTable('runs')
      .set({ state: 'Finished', message: '', result_key: result.key })
      .where('stamp', '=', stamp)
      .execute();
    return 'done';
  }
}
