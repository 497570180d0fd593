// `portal projects`: list, create, rename, remove, and open (make it the default for --project).
import type { Command } from 'commander';
import { isApiError, MESSAGES, LENGTHS } from '@portal/core';
import type { Deps } from './context';
import { act, examples, time, title } from './common';
import { registerRenameRemove } from './renameRemove';

export function register(program: Command, deps: Deps): void {
  const projects = program
    .command('projects')
    .description('Projects of an account: each holds uploads, models and requests')
    .addHelpText('after', examples('portal projects list', 'portal projects create --name "Churn"', 'portal projects open <id>'));

  projects
    .command('list')
    .description('List projects: name, id, requests, uploads, created')
    .addHelpText('after', examples('portal projects list', 'portal projects list --json | jq -r ".[].id"'))
    .action(
      act(deps, async (s) => {
        const api = await s.api();
        // An account known by its id (--client, or the one kept at sign-in) is asked for its projects at once: the
        // server checks membership on that call. A name, or an id it refuses, falls back to the account look-up.
        const known = s.opts.client ?? (await s.host()).get('client');
        let bucket = known
          ? await api.calls.bucketList({ active: 1, client: known }).then(
              (r) => r.bucket,
              (e: unknown) => {
                if (isApiError(e) && (e.status === 403 || e.status === 404 || e.status === 400)) return null;
                throw e;
              },
            )
          : null;
        if (!bucket) bucket = (await api.calls.bucketList({ active: 1, client: (await s.client()).stamp })).bucket;
        const current = (await s.host()).get('project');
        s.out.list(
          bucket.list,
          [
            { header: 'Name', get: (b) => b.name },
            { header: 'ID', get: (b) => b.stamp },
            { header: 'Requests', get: (b) => b.runs },
            { header: 'Uploads', get: (b) => b.rends },
            { header: 'Created', get: (b) => time(b.createdAt) },
            { header: 'Default', get: (b) => (b.stamp === current ? 'yes' : '') },
          ],
          MESSAGES.noProjects,
        );
      }),
    );

  projects
    .command('create')
    .description('Create a project')
    .option('--name <name>', `title, ${LENGTHS.title} characters`)
    .addHelpText('after', examples('portal projects create --name "Churn model"', 'portal projects create --name Q3 --json | jq -r .id'))
    .action(
      act(deps, async (s, opts: { name?: string }) => {
        const name = title(await s.need(opts.name, '--name', 'Project name'), 'create');
        const client = await s.client();
        const api = await s.api();
        const { bucket } = await api.calls.bucketCreate({ client: client.stamp, name });
        s.out.done(bucket, `Created project ${bucket.name} (${bucket.stamp})`);
      }),
    );

  registerRenameRemove(projects, deps, {
    noun: 'project',
    exampleName: 'Churn v2',
    rename: async (api, id, name) => (await api.calls.bucketRename({ bucket: id, name })).bucket,
    remove: (api, id) => api.calls.bucketRemove({ bucket: id, active: 0 }),
    // The removed project must not stay the default for --project.
    afterRemove: async (s, id) => {
      const host = await s.host();
      if (host.get('project') === id) host.set('project', undefined);
    },
  });

  projects
    .command('open <id>')
    .description('Make a project the default for the commands that need --project')
    .addHelpText('after', examples('portal projects open <id>', 'portal uploads list   # now lists that project'))
    .action(
      act(deps, async (s, id: string) => {
        const { client, project } = await s.with({ project: id }).project();
        const host = await s.host();
        host.set('client', client.stamp);
        host.set('project', project.stamp);
        const next = project.rends > 0 ? 'portal runs list' : 'portal uploads push FILE (then portal shrink or portal fit)';
        s.out.done(project, `${project.name} (${project.stamp}) is now the default project. Next: ${next}`);
      }),
    );
}
