// `portal integrations list`: list integration keys: name, id, service, token (masked), runs, last ran.
import { MESSAGES } from '@portal/core';
import { time } from '../common';
import { clientId } from './shared';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'list',
  summary: 'List integration keys: name, id, service, token (masked), runs, last ran',
  examples: ['portal integrations list', 'portal integrations list --json'],
};

export type ListOptions = Record<string, never>;

export async function run(_opts: ListOptions, s: Session): Promise<void> {
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
}
