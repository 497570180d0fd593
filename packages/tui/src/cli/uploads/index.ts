// `portal uploads`: list, push FILE... (streamed from disk, hashed while read, PUT to the pre-signed URL), preview,
// rename, remove.
import type { Command } from 'commander';
import type { Deps } from '../context';
import { addNoun } from '../verb';
import * as list from './list';
import * as push from './push';
import * as preview from './preview';
import * as rename from './rename';
import * as remove from './remove';

export function register(program: Command, deps: Deps): void {
  addNoun(
    program,
    deps,
    {
      name: 'uploads',
      summary: "A project's uploads (groups of data files)",
      examples: ['portal uploads list', 'portal uploads push data.json --wait'],
    },
    [list, push, preview, rename, remove],
  );
}
