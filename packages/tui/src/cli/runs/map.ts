// `portal runs map`: see its summary.
import { MESSAGES, mapColouringOf } from '@portal/core';
import { CliError } from '../errors';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'map <id>',
  summary: "Draw a generate request's embeddings as a map (braille dots, coloured by target, cluster or a column)",
  flags: [
    { flags: '--colour-by <column>', description: 'colour the points by this column of the upload (default: the target, else clusters)' },
  ],
  examples: [
    'portal runs map <id>',
    'portal runs map <id> --colour-by petal_width',
    'portal runs map <id> --json | jq .projection.variance',
  ],
};

export interface MapOptions {
  id: string;
  colourBy?: string;
}

export async function run(opts: MapOptions, s: Session): Promise<void> {
  const { id } = opts;
  const api = await s.api();
  const answer = await api.calls.runProjection({ run: id }).catch((e) => {
    if ((e as { status?: number }).status === 404) throw new CliError(MESSAGES.requestNotFound);
    throw e;
  });
  if (s.out.json) return s.out.printJson(answer);
  if (!answer.projection) throw new CliError(answer.note ?? 'This request has no map.');
  const chosen = opts.colourBy === undefined ? { column: null } : mapColouringOf(answer.projection, opts.colourBy);
  if ('problem' in chosen) throw new CliError(chosen.problem);
  const colourBy = chosen.column;
  const { mapLines } = await import('../mapText');
  const width = (s.out.tty && s.out.stdout.columns ? Math.min(s.out.stdout.columns, 120) : 80) - 2;
  const colour = s.out.tty && !s.deps.env.NO_COLOR;
  s.out.stdout.write(mapLines(answer.projection, width, Math.round(width / 4), colour, colourBy).join('\n') + '\n');
}
