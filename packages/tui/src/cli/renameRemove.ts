// The `rename <id>` and `remove <id>` subcommands that every noun (projects, models, runs, ...) declares alike.
import type { Command } from 'commander';
import { LENGTHS, type ApiClient } from '@portal/core';
import type { Deps, Session } from './context';
import { act, confirmRemove, examples, title } from './common';

export interface RenameRemoveSpec {
  /** The thing as named in help and output: "project" gives "Rename a project" and "Removed project <id>". */
  noun: string;
  /** Overrides the help's object ("an integration key") when it differs from "a <noun>". */
  helpNoun?: string;
  /** The title shown in the rename example. */
  exampleName: string;
  /** Renames on the server and returns the renamed entity (printed by --json). */
  rename(api: ApiClient, id: string, name: string): Promise<{ name: string }>;
  /** Removes on the server and returns the response (printed by --json). */
  remove(api: ApiClient, id: string): Promise<unknown>;
  /** What the noun does locally once the server has removed it (e.g. forget a stored default). */
  afterRemove?(s: Session, id: string): Promise<void>;
}

export function registerRenameRemove(noun: Command, deps: Deps, spec: RenameRemoveSpec): void {
  const helpNoun = spec.helpNoun ?? `${/^[aeiou]/i.test(spec.noun) ? 'an' : 'a'} ${spec.noun}`;
  const cli = `portal ${noun.name()}`;

  noun
    .command('rename <id>')
    .description(`Rename ${helpNoun}`)
    .option('--name <name>', `new title, ${LENGTHS.title} characters`)
    .addHelpText('after', examples(`${cli} rename <id> --name "${spec.exampleName}"`))
    .action(
      act(deps, async (s, id: string, opts: { name?: string }) => {
        const name = title(await s.need(opts.name, '--name', 'New name'), 'rename');
        const api = await s.api();
        const renamed = await spec.rename(api, id, name);
        s.out.done(renamed, `Renamed ${spec.noun} ${id} to ${renamed.name}`);
      }),
    );

  noun
    .command('remove <id>')
    .description(`Remove ${helpNoun}`)
    .option('-y, --yes', 'do not ask for confirmation')
    .addHelpText('after', examples(`${cli} remove <id> --yes`))
    .action(
      act(deps, async (s, id: string, opts: { yes?: boolean }) => {
        await confirmRemove(s, `${spec.noun} ${id}`, opts.yes);
        const api = await s.api();
        const res = await spec.remove(api, id);
        await spec.afterRemove?.(s, id);
        s.out.done(res, `Removed ${spec.noun} ${id}`);
      }),
    );
}
