// `portal keys`: client API keys (list, create, rename, remove) and a key's installer, token and example.
import type { Command } from 'commander';
import type { Deps } from '../context';
import { addNoun } from '../verb';
import * as list from './list';
import * as create from './create';
import * as rename from './rename';
import * as remove from './remove';
import * as info from './info';

export function register(program: Command, deps: Deps): void {
  addNoun(
    program,
    deps,
    {
      name: 'keys',
      summary: 'Client API keys: the token and pip installer of the Python package',
      examples: ['portal keys list', 'portal keys create --name "CI"', 'portal keys info <id>'],
    },
    [list, create, rename, remove, info],
  );
}
