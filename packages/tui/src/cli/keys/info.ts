// `portal keys info`: show a key's pip installer (Linux 64-bit), its token and a Python example.
import { printable, withEdgeNames } from '@portal/core';
import { time } from '../common';
import { CliError } from '../errors';
import { activeKeys } from './shared';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'info <id>',
  summary: "Show a key's pip installer (Linux 64-bit), its token and a Python example",
  examples: ['portal keys info <id>', 'portal keys info <id> --json | jq -r .token'],
};

export interface InfoOptions {
  id: string;
}

export async function run(opts: InfoOptions, s: Session): Promise<void> {
  const { id } = opts;
  const { clientId, keys: list } = await activeKeys(s);
  const key = list.find((k) => k.clue === id);
  if (!key) throw new CliError(`No API key ${id} in this account (see portal keys list)`);
  const base = await s.baseUrl();
  const { installCommand, pythonExample } = await import('../heavy');
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
}
