// `portal models`: the project's own models (or the general ones with --general), rename and remove.
import type { Command } from 'commander';
import { MESSAGES } from '@portal/core';
import type { Deps } from './context';
import { act, confirmRemove, examples, time, title } from './common';

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

  models
    .command('rename <id>')
    .description('Rename a model')
    .option('--name <name>', 'new title, 1-60 characters')
    .addHelpText('after', examples('portal models rename <id> --name "Churn embedder"'))
    .action(
      act(deps, async (s, id: string, opts: { name?: string }) => {
        const name = title(await s.need(opts.name, '--name', 'New name'), 'rename');
        const api = await s.api();
        const { model } = await api.calls.modelRename({ model: id, name });
        s.out.done(model, `Renamed model ${id} to ${model.name}`);
      }),
    );

  models
    .command('remove <id>')
    .description('Remove a model')
    .option('-y, --yes', 'do not ask for confirmation')
    .addHelpText('after', examples('portal models remove <id> --yes'))
    .action(
      act(deps, async (s, id: string, opts: { yes?: boolean }) => {
        await confirmRemove(s, `model ${id}`, opts.yes);
        const api = await s.api();
        const res = await api.calls.modelRemove({ model: id, active: 0 });
        s.out.done(res, `Removed model ${id}`);
      }),
    );
}
