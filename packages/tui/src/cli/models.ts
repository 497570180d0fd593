// `portal models`: the project's own models (or the general ones with --general), rename and remove.
import type { Command } from 'commander';
import { MESSAGES } from '@portal/core';
import type { Deps } from './context';
import { act, examples, time } from './common';
import { registerRenameRemove } from './renameRemove';

export function register(program: Command, deps: Deps): void {
  const models = program
    .command('models')
    .description("Models: the general ones and the project's own")
    .addHelpText('after', examples('portal models list', 'portal models list --general'));

  models
    .command('list')
    .description("List the project's models (status, message, created, upload), or the general models")
    .option('--general', 'list the general models (description, message, created)')
    .addHelpText('after', examples('portal models list --project <id>', 'portal models list --general --json'))
    .action(
      act(deps, async (s, opts: { general?: boolean }) => {
        const api = await s.api();
        if (opts.general) {
          const { model } = await api.calls.generalModelList({ active: 1 });
          return s.out.list(
            model.list,
            [
              { header: 'Name', get: (m) => m.name },
              { header: 'ID', get: (m) => m.stamp },
              { header: 'Description', get: (m) => m.desc },
              { header: 'Message', get: (m) => m.message },
              { header: 'Created', get: (m) => time(m.createdAt) },
            ],
            MESSAGES.noModels,
          );
        }
        const { project } = await s.project();
        const { model } = await api.calls.clientModelList({ active: 1, bucket: project.stamp });
        s.out.list(
          model.list,
          [
            { header: 'Name', get: (m) => m.name },
            { header: 'ID', get: (m) => m.stamp },
            { header: 'Status', get: (m) => m.state },
            { header: 'Message', get: (m) => m.message },
            { header: 'Created', get: (m) => time(m.createdAt) },
            { header: 'Upload', get: (m) => m.rend?.name },
          ],
          MESSAGES.noModels,
        );
      }),
    );

  registerRenameRemove(models, deps, {
    noun: 'model',
    exampleName: 'Churn embedder',
    rename: async (api, id, name) => (await api.calls.modelRename({ model: id, name })).model,
    remove: (api, id) => api.calls.modelRemove({ model: id, active: 0 }),
  });
}
