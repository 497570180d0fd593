// The worker: claims jobs from the database (FOR UPDATE SKIP LOCKED), runs them through the processing module,
// keeps a lease while it works, and after a crash retries a job once before failing its subject with a message.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely, type Selectable } from 'kysely';
import { extensionOf, FitParam, PLAN_LIMITS, SHRINK_MAX_PARAMETERS, type PlanName } from '@portal/core';
import { runProcessing } from './run-processing';
import type { DB, JobTable } from '../db/schema';
import { sweepStorage, type Storage } from '../storage/index';
import type { JobQueue } from './queue';
import { settleFlight, uploadKey } from '../uploads';
import { newId, now } from '../ids';
import { pruneRateLimits } from '../ratelimit';

type Job = Selectable<JobTable>;
type Outcome = 'done' | { waitS: number };

export interface WorkerOptions {
  db: Kysely<DB>;
  storage: Storage;
  jobs: JobQueue;
  log: { info(msg: string): void; error(obj: unknown, msg?: string): void };
  /** The embedded database has one process: every job left running at start was cut off by a crash. */
  exclusive: boolean;
  pollMs?: number;
  leaseS?: number;
}

export const CRASH_MESSAGE = 'Processing was interrupted twice, so it was stopped. Please try again or contact support.';
const MAX_ATTEMPTS = 2;
const JOB_RETENTION_S = 7 * 24 * 60 * 60;
const HOUSEKEEPING_MS = 10 * 60 * 1000;

/** A message for users: one sentence ending in a full stop. */
export function sentence(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim() || 'Processing failed.';
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export class Worker {
  private running = false;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  private unsubscribe: (() => void) | null = null;
  private recoverTimer: NodeJS.Timeout | null = null;
  private readonly pollMs: number;
  private readonly leaseS: number;

  constructor(private readonly o: WorkerOptions) {
    this.pollMs = o.pollMs ?? 500;
    this.leaseS = o.leaseS ?? 30;
  }

  async start(): Promise<void> {
    await this.recover(this.o.exclusive);
    await this.housekeep().catch(() => {});
    this.running = true;
    this.unsubscribe = this.o.jobs.onWake(() => this.wakeUp?.());
    this.recoverTimer = setInterval(() => {
      if (!this.o.exclusive) void this.recover(false).catch(() => {});
      if (Date.now() - this.lastHousekeeping > HOUSEKEEPING_MS) void this.housekeep().catch(() => {});
    }, this.leaseS * 1000);
    this.loop = this.run();
  }

  private lastHousekeeping = 0;

  /** Drops finished jobs after a week and spent or expired reset tokens, so the tables do not grow forever. */
  async housekeep(): Promise<void> {
    this.lastHousekeeping = Date.now();
    const t = now();
    await this.o.db.deleteFrom('jobs').where('state', 'in', ['done', 'failed']).where('created_at', '<', t - JOB_RETENTION_S).execute();
    await this.o.db.deleteFrom('reset_tokens').where('expires_at', '<', t - 24 * 60 * 60).execute();
    await pruneRateLimits(this.o.db);
    await sweepStorage(this.o.db, this.o.storage, t);
  }

  async stop(): Promise<void> {
    this.running = false;
    this.unsubscribe?.();
    if (this.recoverTimer) clearInterval(this.recoverTimer);
    this.wakeUp?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let worked = false;
      try {
        worked = await this.runOnce();
      } catch (err) {
        this.o.log.error({ err }, 'The worker could not take a job');
      }
      if (!worked && this.running) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, this.pollMs);
          this.wakeUp = () => {
            clearTimeout(t);
            resolve();
          };
        });
        this.wakeUp = null;
      }
    }
  }

  /** Jobs left running by a dead worker go back to the queue once; a second time, their subject fails. */
  async recover(all: boolean): Promise<void> {
    const t = now();
    let q = this.o.db.selectFrom('jobs').selectAll().where('state', '=', 'running');
    if (!all) q = q.where('locked_until', '<', t);
    for (const job of await q.execute()) {
      if (job.attempts >= MAX_ATTEMPTS) {
        await this.o.db.updateTable('jobs').set({ state: 'failed', error: CRASH_MESSAGE, locked_until: null }).where('id', '=', job.id).execute();
        await this.failSubject(job, CRASH_MESSAGE);
        this.o.log.info(`Job ${job.kind} ${job.ref} failed after an interruption`);
      } else {
        await this.o.db.updateTable('jobs').set({ state: 'queued', locked_until: null, run_after: t }).where('id', '=', job.id).where('state', '=', 'running').execute();
        this.o.log.info(`Job ${job.kind} ${job.ref} was interrupted and is queued again`);
      }
    }
  }

  async claim(): Promise<Job | undefined> {
    const t = now();
    const result = await sql<Job>`
      update jobs set state = 'running', attempts = attempts + 1, locked_until = ${t + this.leaseS}
      where id = (
        select id from jobs where state = 'queued' and run_after <= ${t}
        order by id limit 1 for update skip locked
      )
      returning *`.execute(this.o.db);
    return result.rows[0];
  }

  /** Claims and runs one job; false when the queue had nothing ready. */
  async runOnce(): Promise<boolean> {
    const job = await this.claim();
    if (!job) return false;
    const beat = setInterval(() => {
      void this.o.db.updateTable('jobs').set({ locked_until: now() + this.leaseS }).where('id', '=', job.id).execute().catch(() => {});
    }, (this.leaseS * 1000) / 3);
    try {
      const outcome = await this.handle(job);
      if (outcome === 'done') {
        await this.o.db.updateTable('jobs').set({ state: 'done', locked_until: null }).where('id', '=', job.id).execute();
      } else {
        // Waiting is not an attempt: only crashes count towards the retry limit.
        await this.o.db
          .updateTable('jobs')
          .set({ state: 'queued', locked_until: null, run_after: now() + outcome.waitS, attempts: job.attempts - 1 })
          .where('id', '=', job.id)
          .execute();
      }
    } catch (err) {
      const message = sentence(errorText(err));
      this.o.log.error({ err }, `Job ${job.kind} ${job.ref} failed`);
      await this.o.db.updateTable('jobs').set({ state: 'failed', error: message, locked_until: null }).where('id', '=', job.id).execute();
      await this.failSubject(job, message);
    } finally {
      clearInterval(beat);
    }
    return true;
  }

  private async failSubject(job: Job, message: string): Promise<void> {
    const db = this.o.db;
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

  private handle(job: Job): Promise<Outcome> {
    switch (job.kind) {
      case 'analyze': return this.analyze(job.ref);
      case 'fit': return this.fit(job.ref);
      case 'generate': return this.generate(job.ref);
      case 'shrink': return this.shrink(job.ref);
      default: throw new Error(`Unknown job kind ${job.kind}`);
    }
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

  private async analyze(stamp: string): Promise<Outcome> {
    const db = this.o.db;
    const item = await db.selectFrom('uploads').selectAll().where('stamp', '=', stamp).executeTakeFirst();
    if (!item || item.state !== 'Preparing') return 'done';
    const plan = await this.planOfRend(item.rend);
    const copy = await this.o.storage.localCopy(uploadKey(item.stamp));
    try {
      if (this.o.storage.kind !== 'local') {
        // The object store took the bytes directly from the client: check them here, before anything reads them.
        const size = (await stat(copy.path)).size;
        if (size !== item.size || (await sha256File(copy.path)) !== item.checksum) {
          throw new Error("The stored file differs from the one registered (size or SHA-256 checksum): upload it again.");
        }
      }
      const limits = PLAN_LIMITS[plan];
      const a = await runProcessing('analyzeFile', copy.path, item.file_name, {
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

  /** The first Finished file of the upload with this extension, as a local path. */
  private async dataFile(rend: string | null, ext: string, missing: string) {
    if (!rend) throw new Error(missing);
    const items = await this.o.db.selectFrom('uploads').selectAll().where('rend', '=', rend).where('state', '=', 'Finished').orderBy('created_at').execute();
    const item = items.find((i) => extensionOf(i.file_name) === ext);
    if (!item) throw new Error(missing);
    return this.o.storage.localCopy(uploadKey(item.stamp));
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

  private async fit(stamp: string): Promise<Outcome> {
    const db = this.o.db;
    const run = await this.startRun(stamp);
    if (!run) return 'done';
    await this.setProcessing(stamp, run.model);
    const pile = run.pile ? await db.selectFrom('piles').select('param').where('stamp', '=', run.pile).executeTakeFirst() : undefined;
    const param = FitParam.parse(JSON.parse(pile?.param ?? 'null'));
    const data = await this.dataFile(run.rend, '.json', 'The upload has no processed .json data file to train on.');
    let fitted: Awaited<ReturnType<typeof runProcessing<'fitModel'>>>;
    try {
      fitted = await runProcessing('fitModel', data.path, param, { seed: 1 });
    } finally {
      await data.done();
    }
    const modelJson = JSON.stringify(fitted.model);
    const result = await this.withResult(stamp, async (out) => {
      const { writeFile } = await import('node:fs/promises');
      await writeFile(out, JSON.stringify({ summary: fitted.summary, importance: fitted.importance ?? null, model: fitted.model }));
    });
    await db.transaction().execute(async (trx) => {
      if (run.model) {
        await trx.updateTable('models').set({ state: 'Finished', message: '', data: modelJson, desc: fitted.summary }).where('stamp', '=', run.model).execute();
      }
      await trx.updateTable('runs').set({ state: 'Finished', message: '', result_key: result.key }).where('stamp', '=', stamp).execute();
    });
    return 'done';
  }

  private async generate(stamp: string): Promise<Outcome> {
    const db = this.o.db;
    const run = await this.startRun(stamp);
    if (!run) return 'done';
    const fit = run.fit ? await db.selectFrom('runs').select(['state', 'model', 'message']).where('stamp', '=', run.fit).executeTakeFirst() : undefined;
    if (!fit) throw new Error('The model this request uses no longer exists.');
    if (fit.state === 'Pending' || fit.state === 'Processing') return { waitS: 1 };
    if (fit.state !== 'Finished') throw new Error(`The model this request uses failed to train, so no embeddings were generated: ${fit.message}`);
    await this.setProcessing(stamp, null);
    const model = fit.model ? await db.selectFrom('models').select('data').where('stamp', '=', fit.model).executeTakeFirst() : undefined;
    if (!model?.data) throw new Error('The model this request uses has no trained data.');
    const data = await this.dataFile(run.rend, '.json', 'File for generating not found.');
    let result: { key: string; size: number };
    try {
      result = await this.withResult(stamp, async (out) => {
        await runProcessing('generateEmbeddings', JSON.parse(model.data!), data.path, out);
      });
    } finally {
      await data.done();
    }
    await db.transaction().execute(async (trx) => {
      if (run.rend) {
        await trx.insertInto('boxes').values({ stamp: newId('x_'), rend: run.rend, run: stamp, name: `embeddings-${run.name}.json`, size: result.size, storage_key: result.key, created_at: now() }).execute();
      }
      await trx.updateTable('runs').set({ state: 'Finished', message: '', result_key: result.key }).where('stamp', '=', stamp).execute();
    });
    return 'done';
  }

  private async shrink(stamp: string): Promise<Outcome> {
    const run = await this.startRun(stamp);
    if (!run) return 'done';
    await this.setProcessing(stamp, null);
    const py = await this.dataFile(run.rend, '.py', 'The upload has no processed .py model file.');
    let result: { key: string; size: number };
    try {
      result = await this.withResult(stamp, async (out) => {
        await runProcessing('shrinkReport', py.path, out);
      });
    } finally {
      await py.done();
    }
    await this.o.db.updateTable('runs').set({ state: 'Finished', message: '', result_key: result.key }).where('stamp', '=', stamp).execute();
    return 'done';
  }
}
