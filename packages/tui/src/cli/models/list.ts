// `portal models list`: list the project's models (status, message, created, upload), or the general models.
import { MESSAGES } from '@portal/core';
import { time } from '../common';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'list',
  summary: "List the project's models (status, message, created, upload), or the general models",
  flags: [{ flags: '--general', description: 'list the general models (description, message, created)' }],
  examples: ['portal models list --project <id>', 'portal models list --general --json'],
};

export interface ListOptions {
  general?: boolean;
}

export async function run(opts: ListOptions, s: Session): Promise<void> {
  const api = await s.api();
  if (opts.general) {
    const { model } = await api.calls.generalModelList({ active: 1 });
    return s.out.list(
      model.list,
      [
        { header: 'Name', get: (m) => m.name },
        { header: 'ID', get: (m) => m.stamp },
        { header: 'Description', get: (m) => m.desc },
        { header: 'Message', get: (m) => m.message },
        { header: 'Created', get: (m) => time(m.createdAt) },
      ],
      MESSAGES.noModels,
    );
  }
  const { project } = await s.project();
  const { model } = await api.calls.clientModelList({ active: 1, bucket: project.stamp });
  s.out.list(
    model.list,
    [
      { header: 'Name', get: (m) => m.name },
      { header: 'ID', get: (m) => m.stamp },
      { header: 'Status', get: (m) => m.state },
      { header: 'Message', get: (m) => m.message },
      { header: 'Created', get: (m) => time(m.createdAt) },
      { header: 'Upload', get: (m) => m.rend?.name },
    ],
    MESSAGES.noModels,
  );
}
