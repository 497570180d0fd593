// A shrink report (a shrink request): reads the upload's .py model definition and stores the report.
import { dataFile, failRun, setProcessing, startRun, withResult, type JobHandler } from './job';

export const shrink: JobHandler = {
  async run(ctx, stamp) {
    const run = await startRun(ctx.db, stamp);
    if (!run) return 'done';
    await setProcessing(ctx.db, stamp, null);
    const py = await dataFile(ctx, run.rend, '.py', 'The upload has no processed .py model file.');
    let result: { key: string; size: number };
    try {
      result = await withResult(ctx.storage, stamp, async (out) => {
        await ctx.process('shrink', py.fileName, undefined, 'shrinkReport', py.path, out);
      });
    } finally {
      await py.done();
    }
    await ctx.db.updateTable('runs').set({ state: 'Finished', message: '', result_key: result.key }).where('stamp', '=', stamp).execute();
    return 'done';
  },
  fail: failRun,
};
