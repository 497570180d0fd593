// Requests: piles (parameters), fit and generate runs; run lists, status, events, rerun, rename, remove.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Selectable } from 'kysely';
import {
  ERROR_CODES,
  MESSAGES,
  PLAN_LIMITS,
  checkFitSize,
  fitColumnsProblem,
  extensionOf,
  resultFileName,
  RUN_EVENTS_PAGE,
  isTextEmbeddingModel,
  type FitParam,
  type PlanName,
  type RunEvent,
  type UploadPreview,
} from '@portal/core';
import { defineCall, type CallServices } from './define';
import { defineRenameRemove } from './renameRemove';
import { requireProject, requirePile, requireRun } from '../access';
import { projectOut, checkActiveFilter } from './projects';
import { clientView, runView } from '../views';
import { namedPage, uploadRefOf, uploadRefs } from '../refs';
import { newId, now } from '../ids';
import { HttpError, badRequest, conflict, notFound } from '../errors';
import { spendCredit } from '../billing/credit';
import { actorOf, audit, type Actor } from '../audit';
import type { PileTable, RunTable } from '../db/schema';
import { newModelRow, newRunRow } from '../db/rows';
import type { Services } from '../services';
import { listOut, pageOf } from '../paging';

/** What the group uses: a call's own services and jobs, storage. */
export type RequestServices = CallServices & Pick<Services, 'jobs' | 'storage'>;

type RunRow = Selectable<RunTable>;

type PileRow = Selectable<PileTable>;

/** The columns every new fit or generate run starts with. */
const newRun = (stamp: string, project: string, upload: string, name: string, fn: 'fit' | 'generate', inputs: number, t: number) =>
  newRunRow({ stamp, bucket: project, rend: upload, name, function: fn, inputs, created_at: t });

const planOf = (p: string): PlanName => (p in PLAN_LIMITS ? (p as PlanName) : 'Individual');

/** Fit parameters against the client's plan: sizes from 1 to the plan's maximum, explainability only where allowed. */
function checkFitParam(p: FitParam, planName: string): void {
  const plan = planOf(planName);
  const problem =
    checkFitSize('inputs', p.input_column_size, plan) ??
    checkFitSize('outputs', p.output_column_size, plan) ??
    checkFitSize('target', p.task_target_size, plan) ??
    (p.explainability && !PLAN_LIMITS[plan].explainability ? MESSAGES.explainabilityNotAllowed : null) ??
    // Column names must agree with the sizes; against an upload they are checked when the fit names one.
    fitColumnsProblem(p, [], false);
  if (problem) throw badRequest(problem);
}

/**
 * A fit by column names against the upload's analysed columns (its preview): a column it lacks, a text target for
 * regression or a continuous one for classification is refused before any credit is spent. A preview keeps the first
 * columns of a wide table; names beyond them are checked by the fit itself.
 */
async function checkFitColumns(s: Pick<Services, 'db'>, p: FitParam, upload: string): Promise<void> {
  if (!p.input_columns && !p.target_columns) return;
  const row = await s.db.selectFrom('upload_previews').select('body').where('upload', '=', upload).executeTakeFirst();
  if (!row) return;
  let preview: UploadPreview;
  try {
    preview = (JSON.parse(row.body) as { preview: UploadPreview }).preview;
  } catch {
    return;
  }
  if (preview.kind !== 'table') return;
  const complete = preview.totalCols === null || preview.totalCols <= preview.columns.length;
  const problem = fitColumnsProblem(p, preview.columns, complete);
  if (problem) throw badRequest(problem);
}

/** The upload a request uses: in the same project, Ready, with a Finished file of the wanted extension. */
export async function usableUpload(s: Pick<Services, 'db'>, project: string, uploadStamp: string, ext: string, missing: string) {
  const upload = await s.db
    .selectFrom('rends')
    .selectAll()
    .where('stamp', '=', uploadStamp)
    .where('bucket', '=', project)
    .where('active', '=', 1)
    .executeTakeFirst();
  if (!upload) throw new HttpError(404, ERROR_CODES.notFound, MESSAGES.uploadNotFound);
  if (upload.flight !== 'Ready') throw conflict('The selected upload is not ready yet: wait until its files are processed.');
  const items = await s.db
    .selectFrom('uploads')
    .selectAll()
    .where('rend', '=', upload.stamp)
    .where('state', '=', 'Finished')
    .orderBy('created_at')
    .orderBy('seq')
    .execute();
  const item = items.find((i) => extensionOf(i.file_name) === ext);
  if (!item) throw badRequest(missing);
  return { upload, item, items, inputs: items.reduce((n, i) => n + (i.inputs ?? 0), 0) };
}

/** Runs as the API shows them, with their uploads' names. */
export async function runsOut(db: Services['db'], runs: RunRow[]) {
  const ref = await uploadRefs(
    db,
    runs.map((r) => r.rend),
  );
  return runs.map((r) => runView(r, ref(r.rend)));
}

export const requestRoutes: FastifyPluginAsyncZod<RequestServices> = async (app, s) => {
  const runsOf = (runs: RunRow[]) => runsOut(s.db, runs);

  defineCall(app, s, 'pileCreate', { keys: true }, async ({ caller, body }) => {
    const { project, client } = await requireProject(s.db, caller, body.bucket);
    if (body.variety === 'FitModel') checkFitParam(body.param, client.plan);
    const pile = { stamp: newId('p_'), bucket: project.stamp, variety: body.variety, param: JSON.stringify(body.param), created_at: now() };
    await s.db.insertInto('piles').values(pile).execute();
    return { pile: { stamp: pile.stamp, variety: body.variety, param: body.param, createdAt: pile.created_at } as never };
  });

  /** A fit run (with its model) on a Ready upload with saved parameters; the credit is spent in the same transaction. */
  const createFit = async (
    project: { stamp: string },
    client: { stamp: string; plan: string },
    pileRow: PileRow,
    uploadStamp: string,
    name: string,
    actor: Actor,
    requestId: string,
  ) => {
    if (pileRow.bucket !== project.stamp || pileRow.variety !== 'FitModel') throw notFound('Parameters');
    // The plan may have changed since the parameters were saved: the limits of today apply.
    const param = JSON.parse(pileRow.param) as FitParam;
    checkFitParam(param, client.plan);
    const { upload, inputs, item } = await usableUpload(
      s,
      project.stamp,
      uploadStamp,
      '.json',
      'The selected upload has no .json data file to train on.',
    );
    await checkFitColumns(s, param, item.stamp);
    const stamp = newId('n_');
    const model = newId('m_');
    const t = now();
    await s.db.transaction().execute(async (trx) => {
      await spendCredit(trx, client.stamp, inputs);
      await trx
        .insertInto('models')
        .values(newModelRow({ stamp: model, bucket: project.stamp, rend: upload.stamp, run: stamp, name, created_at: t }))
        .execute();
      await trx
        .insertInto('runs')
        .values({ ...newRun(stamp, project.stamp, upload.stamp, name, 'fit', inputs, t), pile: pileRow.stamp, model })
        .execute();
      await audit(
        trx,
        { client: client.stamp, actor, action: 'request.create', target: stamp, detail: name },
        { client: client.stamp, actor, action: 'model.create', target: model, detail: name },
      );
      await s.jobs.enqueue(trx, 'fit', stamp, { requestId });
    });
    return stamp;
  };

  /**
   * A generate run applying a model to a Ready upload of the same project: the model a fit run trains (reference
   * the fit run), or a Finished model of the project's own reused (reference the model; its fit run, if it still
   * has one, is kept as the run's fit).
   */
  const createGenerate = async (
    project: { stamp: string },
    client: { stamp: string },
    fit: Pick<RunRow, 'state' | 'message' | 'model'> & { stamp: string | null },
    uploadStamp: string,
    name: string,
    actor: Actor,
    requestId: string,
    dimensions: number | null = null,
  ) => {
    if (fit.state === 'Failed') throw conflict(`The model's training failed, so it cannot generate: ${fit.message}`);
    const { upload, inputs } = await usableUpload(s, project.stamp, uploadStamp, '.json', MESSAGES.generateFileNotFound);
    const stamp = newId('n_');
    await s.db.transaction().execute(async (trx) => {
      await spendCredit(trx, client.stamp, inputs);
      await trx
        .insertInto('runs')
        .values({
          ...newRun(stamp, project.stamp, upload.stamp, name, 'generate', inputs, now()),
          fit: fit.stamp,
          model: fit.model,
          dimensions,
        })
        .execute();
      await audit(trx, { client: client.stamp, actor, action: 'request.create', target: stamp, detail: name });
      await s.jobs.enqueue(trx, 'generate', stamp, { requestId });
    });
    return stamp;
  };

  const runById = async (stamp: string) =>
    (await runsOf([await s.db.selectFrom('runs').selectAll().where('stamp', '=', stamp).executeTakeFirstOrThrow()]))[0];

  defineCall(app, s, 'runCreate', { keys: true }, async ({ caller, body, req }) => {
    const { project, client } = await requireProject(s.db, caller, body.bucket);
    let stamp: string;
    if (body.function === 'fit') {
      const { pile } = await requirePile(s.db, caller, body.pile);
      stamp = await createFit(project, client, pile, body.rend, body.name, actorOf(caller), req.id);
    } else if (body.dimensions !== undefined && !isTextEmbeddingModel(body.fit)) {
      throw badRequest('dimensions: only the OpenAI text embeddings model takes a width; leave it out for this model.');
    } else if (body.fit.startsWith('m_') || body.fit.startsWith('general-')) {
      // A model reused: one of the project's own Finished models, or a general model (a fixed projection, no weights).
      const model = await s.db.selectFrom('models').selectAll().where('stamp', '=', body.fit).where('active', '=', 1).executeTakeFirst();
      if (!model) throw notFound('Model');
      const general = model.bucket === null;
      if (!general && model.bucket !== project.stamp) throw notFound('Model');
      if (model.state !== 'Finished')
        throw conflict(
          `${model.name} is ${model.state}: only a Finished model can be reused. Wait for it to finish, or train a new model.`,
        );
      if (!general && !model.data) throw conflict(`${model.name} has no trained data to apply: train a new model.`);
      stamp = await createGenerate(
        project,
        client,
        { stamp: model.run, state: 'Finished', message: '', model: model.stamp },
        body.rend,
        body.name,
        actorOf(caller),
        req.id,
        body.dimensions ?? null,
      );
    } else {
      const fit = await s.db.selectFrom('runs').selectAll().where('stamp', '=', body.fit).where('active', '=', 1).executeTakeFirst();
      if (!fit || fit.function !== 'fit') throw notFound('Model');
      if (fit.bucket !== project.stamp) {
        await requireRun(s.db, caller, fit.stamp);
        throw notFound('Model');
      }
      stamp = await createGenerate(project, client, fit, body.rend, body.name, actorOf(caller), req.id);
    }
    // Read before waking the worker, so the answer is the run as made (Pending), not a moment later.
    const run = await runById(stamp);
    s.jobs.wake();
    return { run };
  });

  defineCall(app, s, 'runRerun', { keys: true }, async ({ caller, body, req }) => {
    const { run, project, client } = await requireRun(s.db, caller, body.run);
    if (!run.rend) throw conflict('This request has no upload to run again.');
    let stamp: string;
    let generate: string | null = null;
    if (run.function === 'fit') {
      const pileRow = run.pile ? await s.db.selectFrom('piles').selectAll().where('stamp', '=', run.pile).executeTakeFirst() : undefined;
      if (!pileRow) throw notFound('Parameters');
      stamp = await createFit(project, client, pileRow, run.rend, run.name, actorOf(caller), req.id);
      // The fit's generate run, made again on its upload with the new model (the newest one, if it had several).
      const gen = await s.db
        .selectFrom('runs')
        .selectAll()
        .where('fit', '=', run.stamp)
        .where('function', '=', 'generate')
        .orderBy('created_at', 'desc')
        .orderBy('seq', 'desc')
        .executeTakeFirst();
      const fit = await s.db.selectFrom('runs').selectAll().where('stamp', '=', stamp).executeTakeFirstOrThrow();
      generate = await createGenerate(project, client, fit, gen?.rend ?? run.rend, gen?.name ?? run.name, actorOf(caller), req.id);
    } else if (run.function === 'generate') {
      const fit = run.fit
        ? await s.db.selectFrom('runs').selectAll().where('stamp', '=', run.fit).where('active', '=', 1).executeTakeFirst()
        : undefined;
      // A general model's request has no fit run: it runs again with the same general model.
      const general =
        !run.fit && run.model
          ? await s.db.selectFrom('models').select('stamp').where('stamp', '=', run.model).where('bucket', 'is', null).executeTakeFirst()
          : undefined;
      if (!fit && !general) throw notFound('Model');
      stamp = await createGenerate(
        project,
        client,
        fit ?? { stamp: null, state: 'Finished', message: '', model: general!.stamp },
        run.rend,
        run.name,
        actorOf(caller),
        req.id,
        run.dimensions,
      );
    } else {
      throw conflict('A shrink request is billed as a quote: create a new shrink request to run it again.');
    }
    const made = { run: await runById(stamp), generate: generate ? await runById(generate) : null };
    s.jobs.wake();
    return made;
  });

  defineCall(app, s, 'runEvents', { keys: true }, async ({ caller, query }) => {
    // Removed runs are 404 here: their log goes with them.
    const { run } = await requireRun(s.db, caller, query.run);
    const rows = await s.db
      .selectFrom('run_events')
      .selectAll()
      .where('run', '=', run.stamp)
      .where('seq', '>', query.after ?? 0)
      .orderBy('seq')
      .limit(RUN_EVENTS_PAGE)
      .execute();
    return {
      event: {
        list: rows.map((e) => ({
          seq: Number(e.seq),
          at: Number(e.at),
          kind: e.kind as RunEvent['kind'],
          message: e.message,
          data: e.data === null ? null : (JSON.parse(e.data) as Record<string, unknown>),
        })),
      },
    };
  });

  defineCall(app, s, 'runList', { keys: true, sessionInQuery: true }, async ({ caller, query }) => {
    const listed = checkActiveFilter(query.active);
    const { client, project, rows, next } = await namedPage<RunRow>(s.db, caller, query.bucket, listed, pageOf(query, 'runs'), 'runs', {
      state: query.state || undefined,
      function: query.function || undefined,
    });
    return {
      client,
      bucket: project,
      run: listOut(
        rows.map((r) => runView(r, uploadRefOf(r))),
        next,
      ),
    };
  });

  defineCall(app, s, 'runStatus', { keys: true }, async ({ caller, query, base }) => {
    const { run, project, client } = await requireRun(s.db, caller, query.run);
    const url = run.state === 'Finished' && run.result_key ? await s.storage.downloadUrl(run.result_key, resultFileName(), base) : null;
    return {
      client: clientView(client),
      bucket: projectOut(project),
      run: { record: (await runsOf([run]))[0], url },
    };
  });

  defineRenameRemove(app, s, 'request', {
    find: (caller, stamp, lookup) => requireRun(s.db, caller, stamp, lookup),
    row: 'run',
    renamed: async (run) => ({ run: (await runsOf([run]))[0] }),
  });
};
