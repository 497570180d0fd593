// `portal runs`: a project's requests (list, show, rename, remove) and the download of a request's results.
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import {
  CONTACT_PATH,
  MESSAGES,
  formatDuration,
  mapColouringOf,
  formatEvent,
  printable,
  printableJson,
  resultFileName,
  runDuration,
  runScoreText,
  type Run,
  type CallResponse,
} from '@portal/core';
import type { Deps, Session } from './context';
import { act, examples, time } from './common';
import { registerRenameRemove } from './renameRemove';
import { CliError, usageError } from './errors';
import { showCommand, type Shown } from './show';

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
  const { isFinalState } = await import('./heavy');
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

export function register(program: Command, deps: Deps): void {
  const runs = program
    .command('runs')
    .description("A project's requests (fit, generate and shrink runs)")
    .addHelpText('after', examples('portal runs list', 'portal runs show <id>', 'portal runs download <id>'));

  runs
    .command('list')
    .description('List requests: name, id, function, status, message, created, upload')
    .option('--status <state>', 'only requests in this state (Pending, Processing, Finished or Failed)')
    .option('--function <fn>', 'only requests of this function (fit, generate or shrink)')
    .addHelpText(
      'after',
      examples('portal runs list --project <id>', 'portal runs list --status Failed --function fit', 'portal runs list --json'),
    )
    .action(
      act(deps, async (s, opts: { status?: string; function?: string }) => {
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
      }),
    );

  runs
    .command('show <id>')
    .description("Show a request's details and whether its results are ready")
    .option('--wait', 'follow the request until it is Finished or Failed')
    .addHelpText('after', examples('portal runs show <id>', 'portal runs show <id> --wait'))
    .action(
      act(deps, async (s, id: string, opts: { wait?: boolean }) => {
        await showCommand(s, RUN_SHOWN, id, opts.wait);
      }),
    );

  runs
    .command('map <id>')
    .description("Draw a generate request's embeddings as a map (braille dots, coloured by target, cluster or a column)")
    .option('--colour-by <column>', 'colour the points by this column of the upload (default: the target, else clusters)')
    .addHelpText(
      'after',
      examples(
        'portal runs map <id>',
        'portal runs map <id> --colour-by petal_width',
        'portal runs map <id> --json | jq .projection.variance',
      ),
    )
    .action(
      act(deps, async (s, id: string, opts: { colourBy?: string }) => {
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
        const { mapLines } = await import('./mapText');
        const width = (s.out.tty && s.out.stdout.columns ? Math.min(s.out.stdout.columns, 120) : 80) - 2;
        const colour = s.out.tty && !s.deps.env.NO_COLOR;
        s.out.stdout.write(mapLines(answer.projection, width, Math.round(width / 4), colour, colourBy).join('\n') + '\n');
      }),
    );

  runs
    .command('logs <id>')
    .description("Print a request's events (state changes, progress, messages); --follow prints them as they come until it ends")
    .option('-f, --follow', 'keep printing events until the request is Finished or Failed')
    .addHelpText('after', examples('portal runs logs <id>', 'portal runs logs <id> --follow', 'portal runs logs <id> --json | jq .message'))
    .action(
      act(deps, async (s, id: string, opts: { follow?: boolean }) => {
        const api = await s.api();
        const { followRunEvents } = await import('./heavy');
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
      }),
    );

  runs
    .command('rerun <id>')
    .description('Make a request again with the same upload and parameters (a fit makes its generate request again too)')
    .option('--wait', 'follow the new request until it is Finished or Failed')
    .addHelpText('after', examples('portal runs rerun <id>', 'portal runs rerun <id> --wait --json'))
    .action(
      act(deps, async (s, id: string, opts: { wait?: boolean }) => {
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
