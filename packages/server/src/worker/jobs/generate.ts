// Generating embeddings (a generate request): waits for the model its request trains, applies the model to the
// upload's .json data, and stores the embeddings as a file of the upload.
import { isTextEmbeddingModel } from '@portal/core';
import { newId, now } from '../../ids';
import { generateTexts } from './generateTexts';
import { WaitAndResume } from '../../integrations/openai';
import { RunEventWriter } from '../events';
import type { Generated } from '../../processing/generate';
import { dataFile, failRun, setProcessing, startRun, withResult, type JobHandler } from './job';

export const generate: JobHandler = {
  async run(ctx, stamp) {
    const db = ctx.db;
    const run = await startRun(db, stamp);
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
    await setProcessing(db, stamp, null);
    const model = fit.model
      ? await db.selectFrom('models').select(['stamp', 'bucket', 'data']).where('stamp', '=', fit.model).executeTakeFirst()
      : undefined;
    // A general model (no project) has no trained data: its embedding is a fixed projection named by its id, or texts
    // sent to OpenAI with the client's key.
    const texts = model && model.bucket === null && isTextEmbeddingModel(model.stamp) ? model.stamp : null;
    const applied = model && model.bucket === null ? { format: 'portal-general-projection', id: model.stamp } : model?.data;
    if (!applied) throw new Error('The model this request uses has no trained data.');
    const data = await dataFile(ctx, run.rend, '.json', 'File for generating not found.');
    const events = new RunEventWriter(db, stamp, ctx.log, ctx.requestId);
    let result: { key: string; size: number };
    let generated: Generated | undefined;
    try {
      result = await withResult(ctx.storage, stamp, async (out) => {
        if (texts) return generateTexts(ctx, { run, modelId: texts, dataPath: data.path, outPath: out, events, fileName: data.fileName });
        generated = await ctx.process(
          'generate',
          data.fileName,
          events,
          'generateEmbeddings',
          typeof applied === 'string' ? JSON.parse(applied) : applied,
          data.path,
          out,
        );
      });
    } catch (err) {
      // The service asked to wait (or failed and is retried later): the slot is free meanwhile; progress is kept.
      if (err instanceof WaitAndResume) return { waitS: Math.max(1, Math.ceil(err.waitMs / 1000)) };
      throw err;
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
      if (generated?.projection) {
        // The map, beside the result: stored as the projection call's own JSON.
        const body = JSON.stringify({ projection: generated.projection, note: null });
        await trx
          .insertInto('run_projections')
          .values({ run: stamp, body })
          .onConflict((oc) => oc.column('run').doUpdateSet({ body }))
          .execute();
      }
      await trx.updateTable('runs').set({ state: 'Finished', message: '', result_key: result.key }).where('stamp', '=', stamp).execute();
    });
    return 'done';
  },
  fail: failRun,
};
