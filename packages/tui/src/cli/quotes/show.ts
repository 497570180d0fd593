// `portal quotes show`: show a quote: amount, invoice, payment portal and the processed request.
import { showCommand } from '../show';
import { QUOTE_SHOWN } from './shared';
import type { Session } from '../context';
import { waitFlag, type VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'show <id>',
  summary: 'Show a quote: amount, invoice, payment portal and the processed request',
  flags: [waitFlag('until the paid request is Finished or Failed')],
  examples: ['portal quotes show <id>', 'portal quotes show <id> --json | jq .quote.record.cent'],
};

export interface ShowOptions {
  id: string;
  wait?: boolean;
}

export async function run(opts: ShowOptions, s: Session): Promise<void> {
  const { id } = opts;
  await showCommand(s, QUOTE_SHOWN, id, opts.wait);
}
