// The `rename <id>` and `remove <id>` verbs that every noun (projects, models, runs, ...) has alike.
import { LENGTHS, type ApiClient } from '@portal/core';
import type { Session } from '../context';
import { confirmRemove, title } from '../common';
import type { Verb } from '../verb';

export interface EditSpec {
  /** The command's noun ("projects"), for the examples. */
  command: string;
  /** The thing as named in help and output: "project" gives "Rename a project" and "Removed project <id>". */
  noun: string;
  /** Overrides the help's object ("an integration key") when it differs from "a <noun>". */
  helpNoun?: string;
}

const helpNoun = (spec: EditSpec) => spec.helpNoun ?? `${/^[aeiou]/i.test(spec.noun) ? 'an' : 'a'} ${spec.noun}`;

export interface RenameOptions {
  id: string;
  name?: string;
}

export function renameVerb(
  spec: EditSpec & {
    /** The title shown in the example. */
    exampleName: string;
    /** Renames on the server and returns the renamed entity (printed by --json). */
    rename(api: ApiClient, id: string, name: string): Promise<{ name: string }>;
  },
): Verb<RenameOptions> {
  return {
    options: {
      usage: 'rename <id>',
      summary: `Rename ${helpNoun(spec)}`,
      flags: [{ flags: '--name <name>', description: `new title, ${LENGTHS.title} characters` }],
      examples: [`portal ${spec.command} rename <id> --name "${spec.exampleName}"`],
    },
    async run(opts, s) {
      const name = title(await s.need(opts.name, '--name', 'New name'), 'rename');
      const renamed = await spec.rename(await s.api(), opts.id, name);
      s.out.done(renamed, `Renamed ${spec.noun} ${opts.id} to ${renamed.name}`);
    },
  };
}

export interface RemoveOptions {
  id: string;
  yes?: boolean;
}

export function removeVerb(
  spec: EditSpec & {
    /** Removes on the server and returns the response (printed by --json). */
    remove(api: ApiClient, id: string): Promise<unknown>;
    /** What the noun does locally once the server has removed it (e.g. forget a stored default). */
    afterRemove?(s: Session, id: string): Promise<void>;
  },
): Verb<RemoveOptions> {
  return {
    options: {
      usage: 'remove <id>',
      summary: `Remove ${helpNoun(spec)}`,
      flags: [{ flags: '-y, --yes', description: 'do not ask for confirmation' }],
      examples: [`portal ${spec.command} remove <id> --yes`],
    },
    async run(opts, s) {
      await confirmRemove(s, `${spec.noun} ${opts.id}`, opts.yes);
      const res = await spec.remove(await s.api(), opts.id);
      await spec.afterRemove?.(s, opts.id);
      s.out.done(res, `Removed ${spec.noun} ${opts.id}`);
    },
  };
}
