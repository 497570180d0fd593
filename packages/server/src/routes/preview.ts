// Seeing the data: an upload's preview and a generate request's map, read back as the JSON the worker stored.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PREVIEW_NOTES, PROJECTION_NOTES, isFinalState, type UploadPreview } from '@portal/core';
import { defineCall, type CallServices } from './define';
import { requireRun, requireFile } from '../access';

/** What the group uses: a call's own services. */
export type PreviewServices = CallServices;

const none = (note: string, totalRows: number | null = null, totalCols: number | null = null): { preview: UploadPreview } => ({
  preview: { kind: 'none', rows: [], columns: [], texts: [], model: null, totalRows, totalCols, note },
});

export const previewRoutes: FastifyPluginAsyncZod<PreviewServices> = async (app, s) => {
  defineCall(app, s, 'uploadPreview', { keys: true }, async ({ caller, query, reply }) => {
    // An upload's id names its first file, so `preview(upload)` works as well as `preview(file)`.
    const first = await s.db.selectFrom('uploads').select('stamp').where('rend', '=', query.upload).orderBy('seq').executeTakeFirst();
    const { file } = await requireFile(s.db, caller, first?.stamp ?? query.upload);
    if (file.state === 'Pending' || file.state === 'Preparing') return none(PREVIEW_NOTES.analysing);
    const row = await s.db.selectFrom('upload_previews').select('body').where('upload', '=', file.stamp).executeTakeFirst();
    if (row) {
      // Stored as the answer's own JSON: no parse and serialise per call.
      reply.type('application/json; charset=utf-8').send(row.body);
      return none('');
    }
    return file.state === 'Failed' ? none(PREVIEW_NOTES.failed) : none(PREVIEW_NOTES.older, file.rows, file.cols);
  });

  defineCall(app, s, 'runProjection', { keys: true }, async ({ caller, query, reply }) => {
    const { run } = await requireRun(s.db, caller, query.run);
    const row = await s.db.selectFrom('run_projections').select('body').where('run', '=', run.stamp).executeTakeFirst();
    if (row) {
      reply.type('application/json; charset=utf-8').send(row.body);
      return { projection: null, note: null };
    }
    return { projection: null, note: isFinalState(run.state) ? PROJECTION_NOTES.none : PROJECTION_NOTES.waiting };
  });
};
