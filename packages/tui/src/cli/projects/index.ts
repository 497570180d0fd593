// `portal projects`: list, create, rename, remove, and open (make one the default for --project).
import type { Command } from 'commander';
import type { Deps } from '../context';
import { addNoun } from '../verb';
import * as list from './list';
import * as create from './create';
import * as rename from './rename';
import * as remove from './remove';
import * as open from './open';

export function register(program: Command, deps: Deps): void {
  addNoun(
    program,
    deps,
    {
      name: 'projects',
      summary: 'Projects of an account: each holds uploads, models and requests',
      examples: ['portal projects list', 'portal projects create --name "Churn"', 'portal projects open <id>'],
    },
    [list, create, rename, remove, open],
  );
}
