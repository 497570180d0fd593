// Training a model (a fit request): trains on the upload's .json data with the request's parameters, streams
// progress into the request's event log, and stores the model and its summary.
import { writeFile } from 'node:fs/promises';
import { FitParam } from '@portal/core/contract/table';
import type { Result } from '../run-processing';
import { RunEventWriter } from '../events';
import { dataFile, failRun, setProcessing, startRun, withResult, type JobHandler } from './job';

export const fit: JobHandler = {
  async run(ctx, stamp) {
    const db = ctx.db;
    const run = await startRun(db, stamp);
    if (!run) return 'done';
    await setProcessing(db, stamp, run.model);
    const pile = run.pile ? await db.selectFrom('piles').select('param').where('stamp', '=', run.pile).executeTakeFirst() : undefined;
    const param = FitParam.parse(JSON.parse(pile?.param ?? 'null'));
    const data = await dataFile(ctx, run.rend, '.json', 'The upload has no processed .json data file to train on.');
    const events = new RunEventWriter(db, stamp, ctx.log, ctx.requestId);
    let fitted: Result<'fitModel'>;
    try {
      fitted = await ctx.process('fit', data.fileName, events, 'fitModel', data.path, param, { seed: 1 });
    } finally {
      // Written before the run settles, so its log reads in order and a follower that stops at the last state saw them.
      await events.flush();
      await data.done();
    }
    const modelJson = JSON.stringify(fitted.model);
    const result = await withResult(ctx.storage, stamp, async (out) => {
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
      await trx
        .updateTable('runs')
        .set({ state: 'Finished', message: '', result_key: result.key, metrics: JSON.stringify(fitted.metrics), note: fitted.note })
        .where('stamp', '=', stamp)
        .execute();
    });
    return 'done';
  },
  fail: failRun,
};
