// `portal fit`: create a request that trains a model on a Ready upload and transforms its data.
import {
  DEFAULT_TASK,
  MESSAGES,
  TASKS,
  TITLE_MAX,
  checkFitRequest,
  sizeLines,
  sizesFromPicks,
  firstError,
  fitUploadProblem,
  type TaskName,
} from '@portal/core';
import { integer } from '../common';
import { CliError, usageError } from '../errors';
import { followRun, runStatus, showRun } from '../runs/shared';
import { FitOptions, REQUEST_NAME_FLAG, UPLOAD_FLAG, columnPicks } from './shared';
import type { Session } from '../context';
import { REQUEST_WAIT_FLAG, type VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'fit',
  summary: 'Create a request that trains a model on a Ready upload and transforms its data',
  flags: [
    UPLOAD_FLAG,
    {
      flags: '--target-column <name>',
      description: 'the column the model learns to predict (default: one named like label, target, y or class)',
    },
    {
      flags: '--input-columns <names>',
      description: 'the columns the model reads, comma-separated (default: all others, up to the plan maximum)',
    },
    { flags: '--inputs <n>', description: 'input column size (1 to the plan maximum), for a fit by sizes instead of column names' },
    { flags: '--outputs <n>', description: 'output column size: the width of each embedding (1 to the plan maximum)' },
    { flags: '--target <n>', description: 'task target size (1 to the plan maximum), for a fit by sizes' },
    {
      flags: '--task <task>',
      description: `${TASKS.join(' or ')} (default: inferred from the target column; regression for a fit by sizes)`,
    },
    { flags: '--explain', description: 'compute explainability (not available on the Individual plan)' },
    REQUEST_NAME_FLAG,
    REQUEST_WAIT_FLAG,
  ],
  examples: [
    'portal fit --upload <id> --target-column species --wait',
    'portal fit --upload <id> --target-column label --input-columns f1,f2,f3 --outputs 2',
    'portal fit --upload <id> --inputs 3 --outputs 5 --target 1',
  ],
};

export async function run(opts: FitOptions, s: Session): Promise<void> {
  if (opts.task !== undefined && !(TASKS as readonly string[]).includes(opts.task))
    throw usageError(`--task must be one of: ${TASKS.join(', ')}`);
  const upload = await s.need(opts.upload, '--upload', 'Upload id');
  const { client, project } = await s.project();
  const api = await s.api();
  const { rend: uploads } = await api.calls.rendList({ active: 1, bucket: project.stamp });
  const chosen = uploads.list.find((r) => r.stamp === upload);
  const unusable = fitUploadProblem(chosen);
  if (unusable || !chosen) throw new CliError(unusable ?? MESSAGES.uploadNotFound);
  const name = opts.name ?? chosen.name.slice(0, TITLE_MAX);
  const byName = opts.targetColumn !== undefined || opts.inputColumns !== undefined || opts.inputs === undefined;
  // By column name when the upload's table names its columns, unless sizes are given.
  const picked = byName ? await columnPicks(s, chosen, opts, client.plan) : null;
  const sizes = picked
    ? {
        ...sizesFromPicks(picked, client.plan),
        ...(opts.outputs !== undefined ? { outputs: integer(opts.outputs, '--outputs') } : {}),
        target: 1,
      }
    : {
        inputs: integer(await s.need(opts.inputs, '--inputs', 'Input column size'), '--inputs'),
        outputs: integer(await s.need(opts.outputs, '--outputs', 'Output column size'), '--outputs'),
        target: integer(await s.need(opts.target, '--target', 'Task target size'), '--target'),
      };
  const { outputs } = sizes;
  const problem = firstError(
    checkFitRequest(
      {
        name,
        inputs: sizes.inputs ?? null,
        outputs: outputs ?? null,
        target: sizes.target ?? null,
        explainability: !!opts.explain,
        upload,
      },
      client.plan,
    ),
  );
  if (problem) throw new CliError(problem);
  if (picked) {
    const lines = sizeLines(picked, outputs!);
    for (const line of [lines.inputs, lines.outputs, lines.target]) s.out.notice(line);
  }
  const { createFitRequest } = await import('../heavy');
  const made = await createFitRequest(api, {
    project: project.stamp,
    upload,
    name,
    param: {
      explainability: !!opts.explain,
      input_column_size: sizes.inputs!,
      output_column_size: outputs!,
      task_target_size: sizes.target!,
      task: picked?.task ?? (opts.task as TaskName | undefined) ?? DEFAULT_TASK,
      ...(picked ? { input_columns: picked.inputs, target_columns: [picked.target] } : {}),
    },
  });
  s.out.notice(`Created request ${made.fit} and its embeddings ${made.generate} in ${project.name}`);
  // The fit is what is shown (how good the model is); --wait also waits for its embeddings, named beside it
  // (and in --json as `generate`), so they can be downloaded next.
  const fit = opts.wait ? await followRun(s, made.fit) : await runStatus(s, made.fit);
  const trained = fit.run.record.state === 'Finished';
  const generate = opts.wait && trained ? await followRun(s, made.generate) : await runStatus(s, made.generate);
  const shown: typeof fit & { generate: typeof generate.run } = { ...fit, generate: generate.run };
  await showRun(s, shown);
  const g = generate.run.record;
  if (!s.out.json)
    s.out.notice(
      `Embeddings: ${g.name} (${g.stamp}) is ${g.state}${generate.run.url ? `: portal runs download ${g.stamp}` : `: portal runs show ${g.stamp}`}`,
    );
  if (opts.wait && !(trained && g.state === 'Finished')) s.exit(1);
}
