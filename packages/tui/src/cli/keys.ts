// `portal keys`: client API keys (list, create, rename, remove) and a key's installer, token and example.
import type { Command } from 'commander';
import { MESSAGES, canCreateApiKey, type ClientApiKey, LENGTHS } from '@portal/core';
import type { Deps, Session } from './context';
import { printable, withEdgeNames } from '@portal/core';
import { act, examples, time, title } from './common';
import { registerRenameRemove } from './renameRemove';
import { CliError } from './errors';

async function activeKeys(s: Session): Promise<{ clientId: string; keys: ClientApiKey[] }> {
  const client = await s.client();
  const api = await s.api();
  const res = await api.calls.apikeyList({ client: client.stamp });
  return { clientId: client.stamp, keys: res.apikey.list.filter((k) => k.active === 1) };
}

export function register(program: Command, deps: Deps): void {
  const keys = program
    .command('keys')
    .description('Client API keys: the token and pip installer of the Python package')
    .addHelpText('after', examples('portal keys list', 'portal keys create --name "CI"', 'portal keys info <id>'));

  keys
    .command('list')
    .description('List API keys: name, id, installs, last installed')
    .addHelpText('after', examples('portal keys list', 'portal keys list --client <id> --json'))
    .action(
      act(deps, async (s) => {
        const { keys: list } = await activeKeys(s);
        s.out.list(
          list,
          [
            { header: 'Name', get: (k) => k.name },
            { header: 'ID', get: (k) => k.clue },
            { header: 'Installs', get: (k) => k.installs },
            { header: 'Last installed', get: (k) => time(k.installedAt) },
            { header: 'Created', get: (k) => time(k.createdAt) },
          ],
          MESSAGES.noApiKeys,
        );
      }),
    );

  keys
    .command('create')
    .description('Create the API key (offered only while the account has none)')
    .option('--name <name>', `title, ${LENGTHS.title} characters`)
    .addHelpText('after', examples('portal keys create --name "Production"'))
    .action(
      act(deps, async (s, opts: { name?: string }) => {
        const name = title(await s.need(opts.name, '--name', 'Key name'), 'create');
        const { clientId, keys: list } = await activeKeys(s);
        if (!canCreateApiKey(list))
          throw new CliError(`This account already has an API key (${list[0].clue}); remove it before creating another`);
        const api = await s.api();
        const { apikey } = await api.calls.apikeyCreate({ client: clientId, name });
        s.out.done(apikey, `Created API key ${apikey.name} (${apikey.clue})`);
      }),
    );

  registerRenameRemove(keys, deps, {
    noun: 'API key',
    exampleName: 'Staging',
    rename: async (api, id, name) => (await api.calls.apikeyRename({ apikey: id, name })).apikey,
    remove: (api, id) => api.calls.apikeyRemove({ apikey: id, active: 0 }),
  });

  keys
    .command('info <id>')
    .description("Show a key's pip installer (Linux 64-bit), its token and a Python example")
    .addHelpText('after', examples('portal keys info <id>', 'portal keys info <id> --json | jq -r .token'))
    .action(
      act(deps, async (s, id: string) => {
        const { clientId, keys: list } = await activeKeys(s);
        const key = list.find((k) => k.clue === id);
        if (!key) throw new CliError(`No API key ${id} in this account (see portal keys list)`);
        const base = await s.baseUrl();
        const { installCommand, pythonExample } = await import('./heavy');
        const installer = installCommand(base, key.pack.linux64);
        const example = pythonExample(base, key.token, clientId);
        if (s.out.json) return s.out.printJson(withEdgeNames({ ...key, installer, example }));
        s.out.object(key, [
          ['Name', key.name],
          ['ID', key.clue],
          ['Installs', key.installs],
          ['Last installed', time(key.installedAt)],
          ['Installer (Linux 64-bit)', installer],
          ['Token', key.token],
        ]);
        if (s.out.tty) s.deps.stdout.write(`\nPython example:\n${printable(example, { multiline: true })}\n`);
      }),
    );
}
