// `portal runs`: a project's requests (list, show, rename, remove) and the download of a request's results.
import type { Command } from 'commander';
import type { Deps } from '../context';
import { addNoun } from '../verb';
import * as list from './list';
import * as show from './show';
import * as map from './map';
import * as logs from './logs';
import * as rerun from './rerun';
import * as rename from './rename';
import * as remove from './remove';
import * as download from './download';

export function register(program: Command, deps: Deps): void {
  addNoun(
    program,
    deps,
    {
      name: 'runs',
      summary: "A project's requests (fit, generate and shrink runs)",
      examples: ['portal runs list', 'portal runs show <id>', 'portal runs download <id>'],
    },
    [list, show, map, logs, rerun, rename, remove, download],
  );
}
