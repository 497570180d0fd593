// `portal projects open <id>`: makes the project (and its account) the default for the commands that need one.
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export interface OpenOptions {
  id: string;
}

export const options: VerbOptions = {
  usage: 'open <id>',
  summary: 'Make a project the default for the commands that need --project',
  examples: ['portal projects open <id>', 'portal uploads list   # now lists that project'],
};

export async function run(opts: OpenOptions, s: Session): Promise<void> {
  const { client, project } = await s.with({ project: opts.id }).project();
  const host = await s.host();
  host.set('client', client.stamp);
  host.set('project', project.stamp);
  const next = project.rends > 0 ? 'portal runs list' : 'portal uploads push FILE (then portal shrink or portal fit)';
  s.out.done(project, `${project.name} (${project.stamp}) is now the default project. Next: ${next}`);
}
