// Uploads: groups (rends) listed with their items, created, finished, renamed, removed; items registered and finished.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MESSAGES, PLAN_LIMITS, UPLOAD_CONTEXTS, extensionOf, formatSize, type PlanName } from '@portal/core';
import { defineCall, type CallServices } from './define';
import { defineRenameRemove } from './renameRemove';
import { actorOf, audit } from '../audit';
import { requireProject, requireUpload, requireFile } from '../access';
import { checkActiveFilter } from './projects';
import { uploadView, fileView } from '../views';
import { newId, now } from '../ids';
import { badRequest, conflict, tooLarge } from '../errors';
import { NOT_UPLOADED, UPLOAD_COLUMNS, UPLOAD_READS, uploadWithFiles, settleFlight, uploadKey, uploadParts, uploadsOf } from '../uploads';
import type { SealOutcome } from '../storage/index';
import type { Services } from '../services';
import { inListOrder, listOut, newestFirst, pageOf, pageOfRows, pageRows, pageShape, type Page } from '../paging';
import { ACCESS_COLUMNS, accessPart, listValues, projectPage, seen, withProjectAccess } from '../projectPage';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema';
import type { Caller } from '../services';

/** What the group uses: a call's own services and jobs, storage. */
export type UploadServices = CallServices & Pick<Services, 'jobs' | 'storage'>;

/** Seconds a finish call holds an item while it takes the bytes; a holder that died is replaced after this. */
const SEAL_HOLD_S = 120;

/** The uploads list's rows: the access row (the project and its client), then the uploads' (uploadParts). */
const UPLOAD_LIST_COLUMNS = { ...ACCESS_COLUMNS, ...UPLOAD_COLUMNS };

/**
 * A project's uploads list (a page of it, or all of it), with the project and its client, in one statement: the
 * page of uploads, each joined to its files, then their results, each a plain read of rows (no JSON built in the
 * database, no count per upload).
 */
async function uploadList(db: Kysely<DB>, caller: Caller, projectStamp: string, listed: boolean, page: Page | null) {
  const newest = newestFirst('rends', page);
  const values = listValues(projectStamp, caller, listed, page);
  const { project, client, rows } = await projectPage(db, caller, values, 'upload_list', pageShape(page, newest), (db, p) => {
    const q = withProjectAccess(db, p).with('p', (db) =>
      pageOfRows(
        db,
        db
          .selectFrom('rends as r')
          .select(UPLOAD_READS.map((c) => `r.${c}` as const))
          .where(seen(p))
          .where('r.bucket', '=', p.parent)
          .where('r.active', '=', sql.lit(1)),
        'r',
        page,
        newest,
        p,
      ),
    );
    const { files, results } = uploadParts(db, db, UPLOAD_LIST_COLUMNS);
    return accessPart(q.selectFrom('sc'), UPLOAD_LIST_COLUMNS, true).unionAll(files).unionAll(results);
  });
  const { uploads, view } = uploadsOf(rows);
  const { rows: kept, next } = pageRows(inListOrder(uploads, newest), page);
  return { client, bucket: project, rend: listOut(kept.map(view), next) };
}

export const uploadRoutes: FastifyPluginAsyncZod<UploadServices> = async (app, s) => {
  defineCall(app, s, 'rendList', { keys: true, sessionInQuery: true }, async ({ caller, query }) => {
    return uploadList(s.db, caller, query.bucket, checkActiveFilter(query.active), pageOf(query, 'rends'));
  });

  defineCall(app, s, 'rendCreate', { keys: true }, async ({ caller, body }) => {
    const { project, client } = await requireProject(s.db, caller, body.bucket);
    const row = { stamp: newId('r_'), bucket: project.stamp, name: body.name, flight: 'Pending', active: 1, created_at: now() };
    await s.db.transaction().execute(async (trx) => {
      await trx.insertInto('rends').values(row).execute();
      await audit(trx, { client: client.stamp, actor: actorOf(caller), action: 'upload.create', target: row.stamp, detail: row.name });
    });
    // A new upload has no files, results or requests yet: no need to read it back.
    return { rend: uploadView(row, [], [], 0) };
  });

  defineRenameRemove(app, s, 'upload', {
    find: (caller, stamp, lookup) => requireUpload(s.db, caller, stamp, lookup),
    row: 'upload',
    // Bytes of a removed upload are swept after the storage's grace period: such an upload cannot come back whole.
    checkRestore: async (upload) => {
      const swept = await s.db
        .selectFrom('uploads')
        .select('stamp')
        .where('rend', '=', upload.stamp)
        .where('swept_at', 'is not', null)
        .executeTakeFirst();
      if (swept) throw conflict('This upload was removed too long ago to restore: upload its files again.');
    },
    renamed: async (upload) => ({ rend: await uploadWithFiles(s.db, upload.stamp) }),
  });

  defineCall(app, s, 'rendFinish', { keys: true }, async ({ caller, body }) => {
    const { upload } = await requireUpload(s.db, caller, body.rend);
    if (upload.flight === 'Pending') {
      await s.db.transaction().execute(async (trx) => {
        // Items whose bytes never arrived cannot become ready: they fail now rather than wait forever.
        await trx
          .updateTable('uploads')
          .set({ state: 'Failed', error: NOT_UPLOADED })
          .where('rend', '=', upload.stamp)
          .where('state', '=', 'Pending')
          .execute();
        await trx
          .updateTable('rends')
          .set({ flight: 'Processing' })
          .where('stamp', '=', upload.stamp)
          .where('flight', '=', 'Pending')
          .execute();
      });
      await settleFlight(s.db, upload.stamp);
    }
    return { rend: await uploadWithFiles(s.db, upload.stamp) };
  });

  defineCall(app, s, 'uploadRegister', { keys: true }, async ({ caller, body, base }) => {
    const { upload, client } = await requireUpload(s.db, caller, body.rend);
    const allowed: readonly string[] = UPLOAD_CONTEXTS.uploads.extensions;
    if (!allowed.includes(extensionOf(body.file.name))) throw badRequest(MESSAGES.invalidFileType(allowed));
    const plan = (client.plan in PLAN_LIMITS ? client.plan : 'Individual') as PlanName;
    const max = PLAN_LIMITS[plan].maxFileSize;
    if (body.file.size > max) throw tooLarge(`${MESSAGES.fileTooLarge} The ${plan} plan allows files up to ${formatSize(max)}.`);
    if (upload.flight !== 'Pending') throw conflict('This upload is already finished: start a new upload to add files.');
    // The same file registered again (a client continuing a cut-off upload, or retrying a lost answer) gets the item it
    // already has, with a fresh URL, rather than a second item.
    const same = await s.db
      .selectFrom('uploads')
      .selectAll()
      .where('rend', '=', upload.stamp)
      .where('state', '=', 'Pending')
      .where('file_name', '=', body.file.name)
      .where('checksum', '=', body.file.checksum)
      .where('size', '=', body.file.size)
      .executeTakeFirst();
    if (same) {
      const { url, expiresAt } = await s.storage.uploadUrl(
        { stamp: same.stamp, size: same.size, checksum: same.checksum },
        uploadKey(same.stamp),
        base,
      );
      return { upload: { ...fileView(same), url, expiresAt } };
    }
    const count = await s.db
      .selectFrom('uploads')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('rend', '=', upload.stamp)
      .executeTakeFirstOrThrow();
    if (Number(count.n) >= UPLOAD_CONTEXTS.uploads.maxFiles) throw badRequest(MESSAGES.tooManyFiles(UPLOAD_CONTEXTS.uploads.maxFiles));
    const row = {
      stamp: newId('f_'),
      rend: upload.stamp,
      name: body.name,
      state: 'Pending',
      checksum: body.file.checksum,
      file_name: body.file.name,
      size: body.file.size,
      proc: 0,
      cols: null,
      rows: null,
      inputs: null,
      meta_error: null,
      error: null,
      stored: 0,
      created_at: now(),
      sealing_until: null,
      ended_at: null,
      swept_at: null,
    };
    await s.db.insertInto('uploads').values(row).execute();
    const { url, expiresAt } = await s.storage.uploadUrl(
      { stamp: row.stamp, size: row.size, checksum: row.checksum },
      uploadKey(row.stamp),
      base,
    );
    return { upload: { ...fileView(row), url, expiresAt } };
  });

  defineCall(app, s, 'uploadFinish', { keys: true }, async ({ caller, body, req }) => {
    const { file } = await requireFile(s.db, caller, body.upload);
    if (file.state !== 'Pending') return { upload: fileView(file) };
    // One finish at a time takes the bytes: on S3 it copies them out of the URL's reach and checks the copy.
    const t = now();
    const claim = await s.db
      .updateTable('uploads')
      .set({ sealing_until: t + SEAL_HOLD_S })
      .where('stamp', '=', file.stamp)
      .where('state', '=', 'Pending')
      .where((eb) => eb.or([eb('sealing_until', 'is', null), eb('sealing_until', '<', t)]))
      .executeTakeFirst();
    if (Number(claim.numUpdatedRows) === 0) {
      const fresh = await s.db.selectFrom('uploads').selectAll().where('stamp', '=', file.stamp).executeTakeFirstOrThrow();
      if (fresh.state !== 'Pending') return { upload: fileView(fresh) };
      throw conflict("The file's bytes are being checked: finish it again in a moment.");
    }
    const release = () => s.db.updateTable('uploads').set({ sealing_until: null }).where('stamp', '=', file.stamp).execute();
    let outcome: SealOutcome;
    try {
      // Well inside the hold, so a stalled store cannot outlive it and race the next finish.
      outcome = await s.storage.seal(uploadKey(file.stamp), file, AbortSignal.timeout((SEAL_HOLD_S / 2) * 1000));
    } catch (err) {
      await release();
      throw err;
    }
    if ('missing' in outcome) {
      await release();
      throw conflict("The file's bytes have not arrived yet: send them to the upload URL, then finish.");
    }
    if ('error' in outcome) {
      await s.db
        .updateTable('uploads')
        .set({ state: 'Failed', error: outcome.error, sealing_until: null })
        .where('stamp', '=', file.stamp)
        .execute();
      throw badRequest(outcome.error);
    }
    await s.db.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable('uploads')
        .set({ state: 'Preparing', stored: 1, sealing_until: null })
        .where('stamp', '=', file.stamp)
        .where('state', '=', 'Pending')
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) > 0) await s.jobs.enqueue(trx, 'analyze', file.stamp, { requestId: req.id });
    });
    s.jobs.wake();
    const fresh = await s.db.selectFrom('uploads').selectAll().where('stamp', '=', file.stamp).executeTakeFirstOrThrow();
    return { upload: fileView(fresh) };
  });
};
