// Analysing an uploaded file: checks the stored bytes, reads rows, columns and inputs within the client's plan,
// and settles the file (Finished or Failed with a sentence) and then its upload.
import type { Kysely } from 'kysely';
import { PLAN_LIMITS, SHRINK_MAX_PARAMETERS, type PlanName } from '@portal/core';
import type { DB } from '../../db/schema';
import { settleFlight, uploadKey } from '../../uploads';
import { checkStored, sentence, type JobHandler } from './job';

async function planOfUpload(db: Kysely<DB>, upload: string): Promise<PlanName> {
  const row = await db
    .selectFrom('rends')
    .innerJoin('buckets', 'buckets.stamp', 'rends.bucket')
    .innerJoin('clients', 'clients.stamp', 'buckets.client')
    .select('clients.plan')
    .where('rends.stamp', '=', upload)
    .executeTakeFirst();
  return row && row.plan in PLAN_LIMITS ? (row.plan as PlanName) : 'Individual';
}

export const analyze: JobHandler = {
  async run(ctx, stamp) {
    const db = ctx.db;
    const item = await db.selectFrom('uploads').selectAll().where('stamp', '=', stamp).executeTakeFirst();
    if (!item || item.state !== 'Preparing') return 'done';
    const plan = await planOfUpload(db, item.rend);
    const copy = await ctx.storage.localCopy(uploadKey(item.stamp));
    try {
      // The object store took the bytes directly from the client: check them here, before anything reads them.
      if (ctx.storage.kind !== 'local') await checkStored(copy.path, item);
      const limits = PLAN_LIMITS[plan];
      const a = await ctx.process('analyze', item.file_name, undefined, 'analyzeFile', copy.path, item.file_name, {
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
      if (a.preview) {
        const body = JSON.stringify({ preview: a.preview });
        await db
          .insertInto('upload_previews')
          .values({ upload: item.stamp, body })
          .onConflict((oc) => oc.column('upload').doUpdateSet({ body }))
          .execute();
      }
    } finally {
      await copy.done();
    }
    await settleFlight(db, item.rend);
    return 'done';
  },

  async fail(db, stamp, message) {
    const item = await db
      .updateTable('uploads')
      .set({ state: 'Failed', proc: 2, meta_error: message, error: message })
      .where('stamp', '=', stamp)
      .where('state', 'in', ['Pending', 'Preparing'])
      .returning('rend')
      .executeTakeFirst();
    if (item) await settleFlight(db, item.rend);
  },
};
