// `portal runs logs`: see its summary.
import { MESSAGES, formatEvent, printable, printableJson } from '@portal/core';
import { CliError } from '../errors';
import { runStatus } from './shared';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'logs <id>',
  summary: "Print a request's events (state changes, progress, messages); --follow prints them as they come until it ends",
  flags: [{ flags: '-f, --follow', description: 'keep printing events until the request is Finished or Failed' }],
  examples: ['portal runs logs <id>', 'portal runs logs <id> --follow', 'portal runs logs <id> --json | jq .message'],
};

export interface LogsOptions {
  id: string;
  follow?: boolean;
}

export async function run(opts: LogsOptions, s: Session): Promise<void> {
  const { id } = opts;
  const api = await s.api();
  const { followRunEvents } = await import('../heavy');
  let seen = 0;
  // One JSON object a line with --json (a stream, not one array), so a follower can read each as it comes.
  const print = (e: Parameters<typeof formatEvent>[0]) => {
    seen++;
    s.deps.stdout.write(s.out.json ? printableJson(e) + '\n' : printable(formatEvent(e)) + '\n');
  };
  await followRunEvents(api, id, print, { follow: !!opts.follow, pollMs: s.deps.pollMs, wait: s.deps.sleep }).catch((e) => {
    if ((e as { status?: number }).status === 404) throw new CliError(MESSAGES.requestNotFound);
    throw e;
  });
  if (!seen && !s.out.json) s.out.notice(MESSAGES.noEvents);
  if (opts.follow) {
    const status = await runStatus(s, id);
    if (status.run.record.state !== 'Finished') s.exit(1);
  }
}
