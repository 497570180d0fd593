// `portal runs show`: show a request's details and whether its results are ready.
import { showCommand } from '../show';
import { RUN_SHOWN } from './shared';
import type { Session } from '../context';
import { REQUEST_WAIT_FLAG, type VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'show <id>',
  summary: "Show a request's details and whether its results are ready",
  flags: [REQUEST_WAIT_FLAG],
  examples: ['portal runs show <id>', 'portal runs show <id> --wait'],
};

export interface ShowOptions {
  id: string;
  wait?: boolean;
}

export async function run(opts: ShowOptions, s: Session): Promise<void> {
  const { id } = opts;
  await showCommand(s, RUN_SHOWN, id, opts.wait);
}
