// `portal runs list`: list requests: name, id, function, status, message, created, upload.
import { MESSAGES, type Run } from '@portal/core';
import { time } from '../common';
import { usageError } from '../errors';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'list',
  summary: 'List requests: name, id, function, status, message, created, upload',
  flags: [
    { flags: '--status <state>', description: 'only requests in this state (Pending, Processing, Finished or Failed)' },
    { flags: '--function <fn>', description: 'only requests of this function (fit, generate or shrink)' },
  ],
  examples: ['portal runs list --project <id>', 'portal runs list --status Failed --function fit', 'portal runs list --json'],
};

export interface ListOptions {
  status?: string;
  function?: string;
}

export async function run(opts: ListOptions, s: Session): Promise<void> {
  if (opts.function && !['fit', 'generate', 'shrink'].includes(opts.function))
    throw usageError(`--function must be fit, generate or shrink, got "${opts.function}"`);
  const { project } = await s.project();
  const api = await s.api();
  const { run } = await api.calls.runList({
    active: 1,
    bucket: project.stamp,
    ...(opts.status ? { state: opts.status } : {}),
    ...(opts.function ? { function: opts.function as Run['function'] } : {}),
  });
  s.out.list<Run>(
    run.list,
    [
      { header: 'Name', get: (r) => r.name },
      { header: 'ID', get: (r) => r.stamp },
      { header: 'Function', get: (r) => r.function },
      { header: 'Status', get: (r) => r.state },
      { header: 'Message', get: (r) => r.message },
      { header: 'Created', get: (r) => time(r.createdAt) },
      { header: 'Upload', get: (r) => r.rend?.name },
    ],
    MESSAGES.noRequests,
  );
}
