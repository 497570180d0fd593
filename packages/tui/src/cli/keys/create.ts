// `portal keys create`: create the API key (offered only while the account has none).
import { canCreateApiKey, LENGTHS } from '@portal/core';
import { title } from '../common';
import { CliError } from '../errors';
import { activeKeys } from './shared';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'create',
  summary: 'Create the API key (offered only while the account has none)',
  flags: [{ flags: '--name <name>', description: `title, ${LENGTHS.title} characters` }],
  examples: ['portal keys create --name "Production"'],
};

export interface CreateOptions {
  name?: string;
}

export async function run(opts: CreateOptions, s: Session): Promise<void> {
  const name = title(await s.need(opts.name, '--name', 'Key name'), 'create');
  const { clientId, keys: list } = await activeKeys(s);
  if (!canCreateApiKey(list))
    throw new CliError(`This account already has an API key (${list[0].clue}); remove it before creating another`);
  const api = await s.api();
  const { apikey } = await api.calls.apikeyCreate({ client: clientId, name });
  s.out.done(apikey, `Created API key ${apikey.name} (${apikey.clue})`);
}
