// A generate request with the OpenAI text embeddings model: the client's newest active OpenAI key is decrypted here,
// in the job, and nowhere else; the upload's texts go to the operator's OPENAI_BASE_URL in batches; the vectors are
// written to the scratch result file as they arrive, so the result is stored only once every batch has answered.
import { copyFile, open, readFile, writeFile } from 'node:fs/promises';
import type { Kysely } from 'kysely';
import { OPENAI_DEFAULT_DIMENSIONS, OPENAI_EMBEDDING_MODEL, TEXT_EMBEDDING_MESSAGES } from '@portal/core';
import type { DB } from '../../db/schema';
import { now } from '../../ids';
import {
  embedTexts,
  planBatches,
  ProviderFailure,
  WaitAndResume,
  type EmbedProgress,
  type TextEmbeddingSettings,
} from '../../integrations/openai';
import type { Storage } from '../../storage/index';
import { isTextList, readTexts } from '../../processing/texts';
import type { RunEventWriter } from '../events';
import type { JobContext } from './job';

const fmt = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, one: string, many = `${one}s`) => `${fmt(n)} ${n === 1 ? one : many}`;

/** The client's newest active OpenAI key, or the sentence that says to add one. */
async function newestKey(db: Kysely<DB>, project: string) {
  const key = await db
    .selectFrom('integrations')
    .innerJoin('buckets', 'buckets.client', 'integrations.client')
    .select(['integrations.clue', 'integrations.name', 'integrations.token_enc'])
    .where('buckets.stamp', '=', project)
    .where('integrations.active', '=', 1)
    .where('integrations.service', '=', 'OpenAI')
    .orderBy('integrations.created_at', 'desc')
    .orderBy('integrations.seq', 'desc')
    .executeTakeFirst();
  if (!key) throw new ProviderFailure(TEXT_EMBEDDING_MESSAGES.noKey);
  return key;
}

/** What a request that waits keeps between its attempts: how far it got, and the vectors written so far. */
interface Saved extends EmbedProgress {
  /** Texts whose vectors are in the saved part of the result. */
  done: number;
}

/** Where a waiting request keeps its progress: beside the results, under its run's name, until it ends. */
export function progressStore(storage: Storage, stamp: string) {
  const part = `results/${stamp}-texts.part`;
  const state = `results/${stamp}-texts.state`;
  return {
    /** The saved progress, with the part of the result written so far copied to `outPath`; null to start afresh. */
    async load(outPath: string): Promise<Saved | null> {
      if (!(await storage.stat(state)) || !(await storage.stat(part))) return null;
      const s = await storage.localCopy(state);
      const p = await storage.localCopy(part);
      try {
        const saved = JSON.parse(await readFile(s.path, 'utf8')) as Saved;
        await copyFile(p.path, outPath);
        return saved;
      } finally {
        await s.done();
        await p.done();
      }
    },
    /** Keeps the result written so far (moved from `outPath`) and the progress. */
    async save(saved: Saved, outPath: string): Promise<void> {
      const statePath = `${outPath}.state`;
      await writeFile(statePath, JSON.stringify(saved));
      await storage.putFile(part, outPath);
      await storage.putFile(state, statePath);
    },
    async clear(): Promise<void> {
      await storage.remove(state);
      await storage.remove(part);
    },
  };
}

/** The sentence when a text request reaches its time limit: the service was slow, not the data file too large. */
export const textsOverrun = (limitS: number) =>
  `OpenAI's embeddings service answered too slowly: the request took longer than ${fmt(limitS)} s, the limit for one request, so no result was written. Try again later.`;

/**
 * A text-embedding generate in a job: network-bound, so it runs in the worker's process under the generate time
 * limit. A wait for the service (rate limit, retry) ends the attempt with WaitAndResume after saving the progress,
 * so the worker slot is free during the wait; the next attempt carries on from the saved progress.
 */
export async function generateTexts(
  ctx: JobContext,
  o: Omit<Parameters<typeof embedTextUpload>[0], 'db' | 'settings' | 'signal' | 'progress'> & { fileName: string },
): Promise<void> {
  const settings = ctx.textEmbeddings;
  if (!settings) throw new Error('Text embeddings are not set up on this server; contact support.');
  const progress = progressStore(ctx.storage, o.run.stamp);
  await ctx.withinLimit(
    'generate',
    o.fileName,
    (signal) => embedTextUpload({ ...o, db: ctx.db, settings, signal, progress }),
    textsOverrun,
  );
}

/** Embeds the texts of `dataPath` into the result file at `outPath`; throws ProviderFailure with the user's sentence. */
export async function embedTextUpload(o: {
  db: Kysely<DB>;
  settings: TextEmbeddingSettings;
  run: { stamp: string; bucket: string; dimensions: number | null };
  modelId: string;
  dataPath: string;
  outPath: string;
  events: RunEventWriter;
  signal: AbortSignal;
  /** Given, waits end the attempt and are resumed from what it keeps (see generateTexts). */
  progress?: ReturnType<typeof progressStore>;
}): Promise<{ rows: number; width: number; calls: number }> {
  const key = await newestKey(o.db, o.run.bucket);
  const buf = await readFile(o.dataPath);
  if (!isTextList(buf)) throw new ProviderFailure(TEXT_EMBEDDING_MESSAGES.notText);
  const read = readTexts(buf);
  if (!read.ok) throw new ProviderFailure(read.error);
  const texts = read.texts;
  const dimensions = o.run.dimensions ?? OPENAI_DEFAULT_DIMENSIONS;
  let token: string;
  try {
    token = o.settings.secrets.decrypt(key.token_enc);
  } catch {
    throw new ProviderFailure(
      `The key '${key.name}' cannot be read by this server (its encryption key was changed): add the key again on Integrations.`,
    );
  }
  const saved = await o.progress?.load(o.outPath);
  if (!saved) {
    // The request uses the key from here on, whatever the provider answers.
    await o.db
      .updateTable('integrations')
      .set((eb) => ({ runs: eb('runs', '+', 1), run_at: now() }))
      .where('clue', '=', key.clue)
      .execute();
    const planned = planBatches(texts, dimensions).length;
    o.events.push({
      kind: 'log',
      message: `Sending ${plural(texts.length, 'text')} to OpenAI ${OPENAI_EMBEDDING_MODEL} (${fmt(dimensions)} dimensions) with the key '${key.name}' in ${plural(planned, 'call')}.`,
      data: { texts: texts.length, calls: planned, dimensions },
    });
  }
  const out = await open(o.outPath, saved ? 'a' : 'w');
  let done = saved?.done ?? 0;
  let outcome: Awaited<ReturnType<typeof embedTexts>>;
  let closed = false;
  try {
    if (!saved) await out.write(`{"format":"embeddings","model":${JSON.stringify(o.modelId)},"embeddings":[\n`);
    outcome = await embedTexts(o.settings, {
      token,
      keyName: key.name,
      texts,
      dimensions,
      sendDimensions: o.run.dimensions !== null,
      signal: o.signal,
      retry: o.settings.retry,
      resume: saved ?? undefined,
      yieldWaits: !!o.progress,
      onVectors: async (vectors) => {
        const lines = vectors.map((v) => `[${v.join(',')}]`).join(',\n');
        await out.write(done === 0 ? lines : `,\n${lines}`);
        done += vectors.length;
        o.events.push({
          kind: 'progress',
          message: `${fmt(done)} of ${fmt(texts.length)} texts`,
          data: { rows: done, total: texts.length },
        });
      },
      onNote: (message, data) => o.events.push({ kind: 'log', message, data }),
    });
    await out.write(
      `\n],"rows":${texts.length},"width":${outcome.width},"inputs":1,"dimensions":${o.run.dimensions ?? outcome.width},"calls":${outcome.calls}}\n`,
    );
  } catch (err) {
    if (err instanceof WaitAndResume && o.progress) {
      await out.close();
      closed = true;
      await o.progress.save({ ...err.progress, done }, o.outPath);
    } else if (!o.signal.aborted || !(err instanceof Error) || err.name !== 'AbortError') {
      await o.progress?.clear().catch(() => {});
    }
    throw err;
  } finally {
    if (!closed) await out.close();
  }
  await o.progress?.clear();
  o.events.push({
    kind: 'log',
    message: `Sent ${plural(texts.length, 'text')} in ${plural(outcome.calls, 'call')} to OpenAI; ${plural(texts.length, 'vector')} of ${plural(outcome.width, 'value')} written.`,
    data: { texts: texts.length, calls: outcome.calls, batches: outcome.batches, width: outcome.width },
  });
  return { rows: texts.length, width: outcome.width, calls: outcome.calls };
}
