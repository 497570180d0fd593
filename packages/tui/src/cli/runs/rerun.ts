// `portal runs rerun`: see its summary.
import { MESSAGES } from '@portal/core';
import { CliError } from '../errors';
import { showCommand } from '../show';
import { RUN_SHOWN } from './shared';
import type { Session } from '../context';
import { waitFlag, type VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'rerun <id>',
  summary: 'Make a request again with the same upload and parameters (a fit makes its generate request again too)',
  flags: [waitFlag('the new request until it is Finished or Failed')],
  examples: ['portal runs rerun <id>', 'portal runs rerun <id> --wait --json'],
};

export interface RerunOptions {
  id: string;
  wait?: boolean;
}

export async function run(opts: RerunOptions, s: Session): Promise<void> {
  const { id } = opts;
  const api = await s.api();
  const made = await api.calls.runRerun({ run: id }).catch((e) => {
    if ((e as { status?: number }).status === 404) throw new CliError(MESSAGES.requestNotFound);
    throw e;
  });
  // The request to follow: a fit's generate request (the one with results), else the new request.
  const target = made.generate ?? made.run;
  if (!opts.wait) {
    s.out.done(made, `Started request ${made.run.stamp}${made.generate ? ` and its generate request ${made.generate.stamp}` : ''}`);
    return;
  }
  await showCommand(s, RUN_SHOWN, target.stamp, true);
}
