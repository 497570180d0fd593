// What a job handler is given and gives back, and the steps several handlers share (the data file a run reads,
// its result file, its state): a job kind is one file in this folder and one row of the table in index.ts.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely, Selectable } from 'kysely';
import { extensionOf } from '@portal/core';
import { sha256File } from '@portal/core/node';
import type { DB, JobTable } from '../../db/schema';
import type { Storage } from '../../storage/index';
import type { MailDeps } from '../../mail/outbox';
import { uploadKey } from '../../uploads';
import { newId } from '../../ids';
import type { JobQueue, ProcessingKind } from '../queue';
import type { Args, Fn, Result } from '../run-processing';
import type { RunEventWriter } from '../events';
import type { TextEmbeddingSettings } from '../../integrations/openai';

export type Job = Selectable<JobTable>;
/** Done, or not ready yet: try again in `waitS` seconds (waiting is not an attempt). */
export type Outcome = 'done' | { waitS: number };
export type JobLog = { info(msg: string): void; error(obj: unknown, msg?: string): void };

/** What the engine hands a handler for one job. */
export interface JobContext {
  db: Kysely<DB>;
  storage: Storage;
  jobs: JobQueue;
  log: JobLog;
  mail?: Omit<MailDeps, 'db' | 'jobs' | 'log'>;
  /** Stops the job's processing (shutdown, or its lease lost to another worker). */
  signal: AbortSignal;
  /** The request that queued the job, or null. */
  requestId: string | null;
  /** Runs one processing call in a process of its own under this kind's limits (an overrun fails with a sentence). */
  process<F extends Fn>(
    kind: ProcessingKind,
    fileName: string,
    events: RunEventWriter | undefined,
    fn: F,
    ...args: Args<F>
  ): Promise<Result<F>>;
  /** The provider and keys text-embedding requests use; without it they fail with a sentence. */
  textEmbeddings?: TextEmbeddingSettings;
  /**
   * Runs work in this process under this kind's time limit (network-bound work such as calls to a provider);
   * `overrun` words the failure when the limit is reached (by default: the kind's sentence about its data file).
   */
  withinLimit<T>(
    kind: ProcessingKind,
    fileName: string,
    work: (signal: AbortSignal) => Promise<T>,
    overrun?: (limitS: number) => string,
  ): Promise<T>;
}

/** One job kind: how to do it (`ref` is its subject's id), and what to mark failed when it cannot be done. */
export interface JobHandler {
  run(ctx: JobContext, ref: string): Promise<Outcome>;
  fail(db: Kysely<DB>, ref: string, message: string): Promise<void>;
}

export const CHANGED_MESSAGE = 'The stored file differs from the one registered (size or SHA-256 checksum): upload it again.';

/** A message for users: one sentence ending in a full stop. */
export function sentence(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim() || 'Processing failed.';
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

/** Fails unless the file at `path` has the size and SHA-256 registered for the upload. */
export async function checkStored(path: string, item: { size: number; checksum: string }): Promise<void> {
  const size = (await stat(path)).size;
  if (size !== Number(item.size) || (await sha256File(path)) !== item.checksum) throw new Error(CHANGED_MESSAGE);
}

/**
 * The first Finished file of the upload with this extension, as a local path, checked against the size and
 * SHA-256 registered for it: bytes changed in storage since they were analysed never reach a fit, generate or shrink.
 */
export async function dataFile(ctx: JobContext, upload: string | null, ext: string, missing: string) {
  if (!upload) throw new Error(missing);
  const items = await ctx.db
    .selectFrom('uploads')
    .selectAll()
    .where('rend', '=', upload)
    .where('state', '=', 'Finished')
    .orderBy('created_at')
    .execute();
  const item = items.find((i) => extensionOf(i.file_name) === ext);
  if (!item) throw new Error(missing);
  const copy = await ctx.storage.localCopy(uploadKey(item.stamp));
  try {
    await checkStored(copy.path, item);
  } catch (err) {
    await copy.done();
    throw err;
  }
  return { ...copy, fileName: item.file_name };
}

/** The request (run) to work on, or null when it is gone or already settled. */
export async function startRun(db: Kysely<DB>, stamp: string) {
  const run = await db.selectFrom('runs').selectAll().where('stamp', '=', stamp).executeTakeFirst();
  if (!run || (run.state !== 'Pending' && run.state !== 'Processing')) return null;
  return run;
}

export async function setProcessing(db: Kysely<DB>, stamp: string, model: string | null) {
  await db.updateTable('runs').set({ state: 'Processing' }).where('stamp', '=', stamp).execute();
  if (model) await db.updateTable('models').set({ state: 'Processing' }).where('stamp', '=', model).execute();
}

/** Runs `work` with a scratch file path, then stores that file as the run's result. */
export async function withResult(
  storage: Storage,
  runStamp: string,
  work: (outPath: string) => Promise<void>,
): Promise<{ key: string; size: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'portal-run-'));
  try {
    const out = join(dir, 'result.json');
    await work(out);
    const size = (await stat(out)).size;
    const key = `results/${runStamp}-${newId()}.json`;
    await storage.putFile(key, out);
    return { key, size };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A request's failure: the run, and the model a fit was training. */
export async function failRun(db: Kysely<DB>, stamp: string, message: string): Promise<void> {
  const run = await db
    .updateTable('runs')
    .set({ state: 'Failed', message })
    .where('stamp', '=', stamp)
    .where('state', 'in', ['Pending', 'Processing'])
    .returning(['model', 'function'])
    .executeTakeFirst();
  if (run?.function === 'fit' && run.model) {
    await db.updateTable('models').set({ state: 'Failed', message }).where('stamp', '=', run.model).execute();
  }
}
