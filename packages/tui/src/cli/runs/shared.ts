// What the runs verbs share.
import { CONTACT_PATH, MESSAGES, formatDuration, runDuration, runScoreText, type CallResponse } from '@portal/core';
import type { Session } from '../context';
import { time } from '../common';
import { CliError } from '../errors';
import { type Shown } from '../show';

export type RunStatus = CallResponse<'runStatus'>;

export async function runStatus(s: Session, id: string): Promise<RunStatus> {
  const api = await s.api();
  return api.calls.runStatus({ run: id }).catch((e) => {
    if ((e as { status?: number }).status === 404) throw new CliError(MESSAGES.requestNotFound);
    throw e;
  });
}

/** Prints a request, with SPEC's contact-support hint when it carries a message. */
export async function showRun(s: Session, status: RunStatus): Promise<void> {
  const run = status.run.record;
  s.out.object(status, [
    ['Name', run.name],
    ['ID', run.stamp],
    ['Function', run.function],
    ['Status', run.state],
    ['How good', runScoreText(run)],
    ['Note', run.note],
    ['Message', run.message],
    ['Created', time(run.createdAt)],
    ['Started', time(run.startedAt)],
    ['Finished', time(run.finishedAt)],
    ['Duration', formatDuration(runDuration(run, s.deps.now() / 1000))],
    ['Upload', run.rend?.name],
    ['Results', status.run.url ? 'ready: portal runs download ' + run.stamp : null],
  ]);
  if (run.message && !s.out.json) s.out.notice(`${run.message} Contact support: ${await s.baseUrl()}${CONTACT_PATH}`);
}

/** --wait: follows a request until it reaches a final state. */
export async function followRun(s: Session, id: string): Promise<RunStatus> {
  const { isFinalState } = await import('../heavy');
  return s.follow(
    () => runStatus(s, id),
    (r) => r.run.record.state,
    (r) => isFinalState(r.run.record.state),
    `Request ${id}`,
  );
}

/** A request, for showCommand: Finished is the good end. */
export const RUN_SHOWN: Shown<RunStatus> = {
  load: runStatus,
  follow: followRun,
  print: showRun,
  finished: (r) => r.run.record.state === 'Finished',
};
