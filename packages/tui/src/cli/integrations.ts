// `portal integrations`: keys for the third-party language-model service (list, create, rename, remove).
import type { Command } from 'commander';
import { DEFAULT_INTEGRATION_SERVICE, INTEGRATION_SERVICES, MESSAGES, checkIntegrationToken, LENGTHS } from '@portal/core';
import type { Deps, Session } from './context';
import { act, examples, time, title } from './common';
import { registerRenameRemove } from './renameRemove';
import { CliError, usageError } from './errors';
import { readAll } from './prompt';

async function clientId(s: Session): Promise<string> {
  return (await s.client()).stamp;
}

export function register(program: Command, deps: Deps): void {
  const integrations = program
    .command('integrations')
    .description(`Integration keys for ${DEFAULT_INTEGRATION_SERVICE}`)
    .addHelpText(
      'after',
      examples('portal integrations list', 'echo "$OPENAI_KEY" | portal integrations create --name "OpenAI prod" --token-stdin'),
    );

  integrations
    .command('list')
    .description('List integration keys: name, id, service, token (masked), runs, last ran')
    .addHelpText('after', examples('portal integrations list', 'portal integrations list --json'))
    .action(
      act(deps, async (s) => {
        const api = await s.api();
        const res = await api.calls.integrationList({ client: await clientId(s) });
        s.out.list(
          res.apikey.list.filter((k) => k.active === 1),
          [
            { header: 'Name', get: (k) => k.name },
            { header: 'ID', get: (k) => k.clue },
            { header: 'Service', get: (k) => k.service },
            { header: 'Token', get: (k) => k.token },
            { header: 'Requests', get: (k) => k.runs },
            { header: 'Last ran', get: (k) => time(k.runAt) },
          ],
          MESSAGES.integrationNotFound,
        );
      }),
    );

  integrations
    .command('create')
    .description('Create an integration key')
    .option('--name <name>', `title, ${LENGTHS.title} characters`)
    .option('--service <service>', `the service (${INTEGRATION_SERVICES.join(', ')})`, DEFAULT_INTEGRATION_SERVICE)
    .option('--token-stdin', "read the service's token from standard input")
    .addHelpText('after', examples('echo "$OPENAI_KEY" | portal integrations create --name "OpenAI prod" --token-stdin'))
    .action(
      act(deps, async (s, opts: { name?: string; service: string; tokenStdin?: boolean }) => {
        const name = title(await s.need(opts.name, '--name', 'Key name'), 'create');
        if (!(INTEGRATION_SERVICES as readonly string[]).includes(opts.service))
          throw usageError(`--service must be one of: ${INTEGRATION_SERVICES.join(', ')}`);
        const token = opts.tokenStdin
          ? await readAll(s.deps.stdin)
          : await s.need(undefined, '--token-stdin', `${opts.service} token`, { secret: true });
        const problem = checkIntegrationToken(token);
        if (problem) throw new CliError(problem);
        const api = await s.api();
        const { apikey } = await api.calls.integrationCreate({ client: await clientId(s), name, service: opts.service as 'OpenAI', token });
        s.out.done(apikey, `Created integration ${apikey.name} (${apikey.clue})`);
      }),
    );

  registerRenameRemove(integrations, deps, {
    noun: 'integration',
    helpNoun: 'an integration key',
    exampleName: 'OpenAI staging',
    rename: async (api, id, name) => (await api.calls.integrationRename({ apikey: id, name }).catch(notFound)).apikey,
    remove: (api, id) => api.calls.integrationRemove({ apikey: id, active: 0 }).catch(notFound),
  });
}

/** SPEC's not-found text for an unknown integration key. */
function notFound(e: unknown): never {
  if ((e as { status?: number }).status === 404) throw new CliError(MESSAGES.integrationNotFound);
  throw e;
}
