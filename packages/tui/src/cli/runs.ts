// `portal runs`: a project's requests (list, show, rename, remove) and the download of a request's results.
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { CONTACT_PATH, MESSAGES, resultFileName, type Run, type CallResponse } from '@portal/core';
import type { Deps, Session } from './context';
import { act, examples, time } from './common';
import { registerRenameRemove } from './renameRemove';
import { CliError } from './errors';

type RunStatus = CallResponse<'runStatus'>;

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
    ['Message', run.message],
    ['Created', time(run.createdAt)],
    ['Upload', run.rend?.name],
    ['Results', status.run.url ? 'ready: portal runs download ' + run.stamp : null],
  ]);
  if (run.message && !s.out.json) s.out.notice(`${run.message} Contact support: ${await s.baseUrl()}${CONTACT_PATH}`);
}

/** --wait: follows a request until it reaches a final state. */
export async function followRun(s: Session, id: string): Promise<RunStatus> {
  const { isFinalState } = await import('./heavy');
  return s.follow(
    () => runStatus(s, id),
    (r) => r.run.record.state,
    (r) => isFinalState(r.run.record.state),
    `Request ${id}`,
  );
}

export function register(program: Command, deps: Deps): void {
  const runs = program
    .command('runs')
    .description("A project's requests (fit, generate and shrink runs)")
    .addHelpText('after', examples('portal runs list', 'portal runs show <id>', 'portal runs download <id>'));

  runs
    .command('list')
    .description('List requests: name, id, function, status, message, created, upload')
    .addHelpText('after', examples('portal runs list --project <id>', 'portal runs list --json'))
    .action(
      act(deps, async (s) => {
        const { project } = await s.project();
        const api = await s.api();
        const { run } = await api.calls.runList({ active: 1, bucket: project.stamp });
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
      }),
    );

  runs
    .command('show <id>')
    .description("Show a request's details and whether its results are ready")
    .option('--wait', 'follow the request until it is Finished or Failed')
    .addHelpText('after', examples('portal runs show <id>', 'portal runs show <id> --wait'))
    .action(
      act(deps, async (s, id: string, opts: { wait?: boolean }) => {
        const status = opts.wait ? await followRun(s, id) : await runStatus(s, id);
        await showRun(s, status);
        if (opts.wait && status.run.record.state !== 'Finished') s.exit(1);
      }),
    );

  registerRenameRemove(runs, deps, {
    noun: 'request',
    exampleName: 'Churn fit v2',
    rename: async (api, id, name) => (await api.calls.runRename({ run: id, name })).run,
    remove: (api, id) => api.calls.runRemove({ run: id, active: 0 }),
  });

  runs
    .command('download <id>')
    .description('Download the results as ensemble_result_{date}_{time}.json in the current folder')
    .option('-o, --output <file>', 'write to this file instead ("-" for standard output)')
    .addHelpText('after', examples('portal runs download <id>', 'portal runs download <id> -o - | jq length'))
    .action(
      act(deps, async (s, id: string, opts: { output?: string }) => {
        const status = await runStatus(s, id);
        if (!status.run.url) throw new CliError(`Request ${id} has no results yet (status ${status.run.record.state})`);
        const api = await s.api();
        const text = await api.downloadText(status.run.url);
        if (opts.output === '-') return void s.deps.stdout.write(text.endsWith('\n') ? text : text + '\n');
        const file = resolve(s.deps.cwd, opts.output ?? resultFileName(new Date(s.deps.now())));
        await writeFile(file, text);
        s.out.done({ file, bytes: Buffer.byteLength(text) }, `Saved ${file}`);
      }),
    );
}
