// `portal projects create --name N`.
import { LENGTHS } from '@portal/core';
import type { Session } from '../context';
import { title } from '../common';
import type { VerbOptions } from '../verb';

export interface CreateOptions {
  name?: string;
}

export const options: VerbOptions = {
  usage: 'create',
  summary: 'Create a project',
  flags: [{ flags: '--name <name>', description: `title, ${LENGTHS.title} characters` }],
  examples: ['portal projects create --name "Churn model"', 'portal projects create --name Q3 --json | jq -r .id'],
};

export async function run(opts: CreateOptions, s: Session): Promise<void> {
  const name = title(await s.need(opts.name, '--name', 'Project name'), 'create');
  const client = await s.client();
  const api = await s.api();
  const { bucket: project } = await api.calls.bucketCreate({ client: client.stamp, name });
  s.out.done(project, `Created project ${project.name} (${project.stamp})`);
}
