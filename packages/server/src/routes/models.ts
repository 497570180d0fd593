// Models: a project's trained models and the general ones (lists, rename, remove).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Selectable } from 'kysely';
import { defineCall, type CallServices } from './define';
import { defineRenameRemove } from './renameRemove';
import { requireModel } from '../access';
import { checkActiveFilter } from './projects';
import { modelView } from '../views';
import { namedPage, uploadRefOf, uploadRefs } from '../refs';
import type { ModelTable } from '../db/schema';
import { listOut, pageOf } from '../paging';

/** What the group uses: a call's own services. */
export type ModelServices = CallServices;

export const modelRoutes: FastifyPluginAsyncZod<ModelServices> = async (app, s) => {
  defineCall(app, s, 'clientModelList', { keys: true, sessionInQuery: true }, async ({ caller, query }) => {
    const listed = checkActiveFilter(query.active);
    const page = pageOf(query, 'models');
    const { client, project, rows, next } = await namedPage<Selectable<ModelTable>>(s.db, caller, query.bucket, listed, page, 'models');
    return {
      client,
      bucket: project,
      model: listOut(
        rows.map((m) => modelView(m, uploadRefOf(m))),
        next,
      ),
    };
  });

  defineCall(app, s, 'generalModelList', { keys: true }, async ({ query }) => {
    const models = checkActiveFilter(query.active)
      ? await s.db
          .selectFrom('models')
          .selectAll()
          .where('bucket', 'is', null)
          .where('active', '=', 1)
          .orderBy('created_at')
          .orderBy('seq')
          .execute()
      : [];
    return { model: { list: models.map((m) => modelView(m, null)) } };
  });

  defineRenameRemove(app, s, 'model', {
    find: (caller, stamp, lookup) => requireModel(s.db, caller, stamp, lookup),
    row: 'model',
    renamed: async (model) => {
      const ref = await uploadRefs(s.db, [model.rend]);
      return { model: modelView(model, ref(model.rend)) };
    },
  });
};
