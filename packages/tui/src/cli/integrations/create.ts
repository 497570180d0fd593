// `portal integrations create`: create an integration key.
import { DEFAULT_INTEGRATION_SERVICE, INTEGRATION_SERVICES, checkIntegrationToken, LENGTHS } from '@portal/core';
import { title } from '../common';
import { CliError, usageError } from '../errors';
import { readAll } from '../prompt';
import { clientId } from './shared';
import type { Session } from '../context';
import { stdinFlag, type VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'create',
  summary: 'Create an integration key',
  flags: [
    { flags: '--name <name>', description: `title, ${LENGTHS.title} characters` },
    { flags: '--service <service>', description: `the service (${INTEGRATION_SERVICES.join(', ')})`, default: DEFAULT_INTEGRATION_SERVICE },
    stdinFlag('token', "the service's token"),
  ],
  examples: ['echo "$OPENAI_KEY" | portal integrations create --name "OpenAI prod" --token-stdin'],
};

export interface CreateOptions {
  name?: string;
  service: string;
  tokenStdin?: boolean;
}

export async function run(opts: CreateOptions, s: Session): Promise<void> {
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
}
