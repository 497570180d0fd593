// `portal models`: the project's own models (or the general ones with --general), rename and remove.
import type { Command } from 'commander';
import type { Deps } from '../context';
import { addNoun } from '../verb';
import * as list from './list';
import * as rename from './rename';
import * as remove from './remove';

export function register(program: Command, deps: Deps): void {
  addNoun(
    program,
    deps,
    {
      name: 'models',
      summary: "Models: the general ones and the project's own",
      examples: ['portal models list', 'portal models list --general'],
    },
    [list, rename, remove],
  );
}
