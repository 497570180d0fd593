// `portal keys list`: list API keys: name, id, installs, last installed.
import { MESSAGES } from '@portal/core';
import { time } from '../common';
import { activeKeys } from './shared';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'list',
  summary: 'List API keys: name, id, installs, last installed',
  examples: ['portal keys list', 'portal keys list --client <id> --json'],
};

export type ListOptions = Record<string, never>;

export async function run(_opts: ListOptions, s: Session): Promise<void> {
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
}
