// `portal fit`: a request that trains a model on a Ready upload and transforms its data (pile → fit → generate);
// `portal generate`: a request that reuses a Finished model of the project instead (the generate run alone).
import type { Command } from 'commander';
import {
  DEFAULT_TASK,
  MESSAGES,
  OPENAI_DEFAULT_DIMENSIONS,
  OPENAI_TEXT_MODEL_ID,
  TASKS,
  TITLE_MAX,
  checkFitPicks,
  checkFitRequest,
  checkDimensions,
  defaultPicks,
  extensionOf,
  namedColumns,
  FIT_FORM_MESSAGES,
  CONTACT_PATH,
  inputCapMessage,
  pickTarget,
  sizeLines,
  sizesFromPicks,
  checkTitle,
  firstError,
  fitUploadProblem,
  reusableModels,
  type FitPicks,
  type PlanName,
  type Rend,
  type TaskName,
} from '@portal/core';
import type { Session } from './context';
import type { Deps } from './context';
import { act, examples, integer } from './common';
import { CliError, usageError } from './errors';
import { followRun, RUN_SHOWN, runStatus, showRun } from './runs';
import { showCommand } from './show';

interface FitOptions {
  upload?: string;
  inputs?: string;
  outputs?: string;
  target?: string;
  targetColumn?: string;
  inputColumns?: string;
  task?: string;
  explain?: boolean;
  name?: string;
  wait?: boolean;
}

export function register(program: Command, deps: Deps): void {
  program
    .command('fit')
    .description('Create a request that trains a model on a Ready upload and transforms its data')
    .option('--upload <id>', 'a Ready upload of the project (see portal uploads list)')
    .option('--target-column <name>', 'the column the model learns to predict (default: one named like label, target, y or class)')
    .option('--input-columns <names>', 'the columns the model reads, comma-separated (default: all others, up to the plan maximum)')
    .option('--inputs <n>', 'input column size (1 to the plan maximum), for a fit by sizes instead of column names')
    .option('--outputs <n>', 'output column size: the width of each embedding (1 to the plan maximum)')
    .option('--target <n>', 'task target size (1 to the plan maximum), for a fit by sizes')
    .option('--task <task>', `${TASKS.join(' or ')} (default: inferred from the target column; regression for a fit by sizes)`)
    .option('--explain', 'compute explainability (not available on the Individual plan)')
    .option('--name <name>', "the request's title (default: the upload's name)")
    .option('--wait', 'follow the request until it is Finished or Failed')
    .addHelpText(
      'after',
      examples(
        'portal fit --upload <id> --target-column species --wait',
        'portal fit --upload <id> --target-column label --input-columns f1,f2,f3 --outputs 2',
        'portal fit --upload <id> --inputs 3 --outputs 5 --target 1',
      ),
    )
    .action(
      act(deps, async (s, opts: FitOptions) => {
        if (opts.task !== undefined && !(TASKS as readonly string[]).includes(opts.task))
          throw usageError(`--task must be one of: ${TASKS.join(', ')}`);
        const upload = await s.need(opts.upload, '--upload', 'Upload id');
        const { client, project } = await s.project();
        const api = await s.api();
        const { rend } = await api.calls.rendList({ active: 1, bucket: project.stamp });
        const chosen = rend.list.find((r) => r.stamp === upload);
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
        const { createFitRequest } = await import('./heavy');
        const made = await createFitRequest(api, {
          bucket: project.stamp,
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
      }),
    );

  program
    .command('generate')
    .description("Create a request that reuses one of the project's Finished models, or a general model, on a Ready upload (no training)")
    .option(
      '--model <id>',
      'a Finished model of the project, or a general model such as general-tabular-regression (see portal models list)',
    )
    .option('--upload <id>', 'a Ready upload of the project (see portal uploads list)')
    .option('--name <name>', "the request's title (default: the upload's name)")
    .option('--dimensions <n>', `values per vector, for ${OPENAI_TEXT_MODEL_ID} only (default ${OPENAI_DEFAULT_DIMENSIONS})`)
    .option('--wait', 'follow the request until it is Finished or Failed')
    .addHelpText(
      'after',
      examples(
        'portal generate --model <id> --upload <id>',
        'portal generate --model <id> --upload <id> --wait --json',
        `portal generate --model ${OPENAI_TEXT_MODEL_ID} --upload <id> --dimensions 256 --wait`,
      ),
    )
    .action(
      act(deps, async (s, opts: { model?: string; upload?: string; name?: string; dimensions?: string; wait?: boolean }) => {
        const model = await s.need(opts.model, '--model', 'Model id');
        const upload = await s.need(opts.upload, '--upload', 'Upload id');
        const { project } = await s.project();
        const api = await s.api();
        const [{ rend }, models, general] = await Promise.all([
          api.calls.rendList({ active: 1, bucket: project.stamp }),
          api.calls.clientModelList({ active: 1, bucket: project.stamp }),
          api.calls.generalModelList({ active: 1 }),
        ]);
        const chosen = rend.list.find((r) => r.stamp === upload);
        const unusable = fitUploadProblem(chosen);
        if (unusable || !chosen) throw new CliError(unusable ?? MESSAGES.uploadNotFound);
        if (!reusableModels(models.model.list, general.model.list).some((m) => m.stamp === model))
          throw new CliError(
            `${MESSAGES.selectModel}: ${model} is neither a Finished model of ${project.name} nor a general model (see portal models list)`,
          );
        const name = opts.name ?? chosen.name.slice(0, TITLE_MAX);
        const problem = checkTitle(name, 'create') ?? (opts.dimensions === undefined ? null : checkDimensions(opts.dimensions));
        if (problem) throw new CliError(problem);
        const { createReuseRequest } = await import('./heavy');
        const dimensions = opts.dimensions === undefined ? undefined : Number(opts.dimensions);
        const runId = await createReuseRequest(api, { bucket: project.stamp, upload, model, name, dimensions });
        s.out.notice(`Created request ${runId} in ${project.name}`);
        await showCommand(s, RUN_SHOWN, runId, opts.wait);
      }),
    );
}

/**
 * The picks of a fit by column name: the upload's analysed columns, the target given or the default one, the inputs
 * given or all others (up to the plan), the task given or the one the target implies; refused with core's sentences.
 */
async function columnPicks(s: Session, chosen: Rend, opts: FitOptions, plan: PlanName): Promise<FitPicks | null> {
  const file = chosen.upload.list.find((i) => i.state === 'Finished' && extensionOf(i.name) === '.json');
  const api = await s.api();
  const { preview } = await api.calls.uploadPreview({ upload: file!.stamp });
  const columns = namedColumns(preview);
  const asked = opts.targetColumn !== undefined || opts.inputColumns !== undefined;
  if (columns.length === 0) {
    if (!asked) return null;
    throw new CliError(`${chosen.name} has no named columns to pick from: give the sizes instead (--inputs, --outputs, --target)`);
  }
  const listed = columns.map((c) => `${c.name} (${c.type})`).join(', ');
  let picks = defaultPicks(columns, plan);
  if (opts.targetColumn !== undefined) picks = pickTarget(columns, picks, opts.targetColumn, plan);
  if (!picks.target) throw new CliError(`${FIT_FORM_MESSAGES.pickTarget}: --target-column NAME, one of ${listed}`);
  if (opts.inputColumns !== undefined)
    picks = {
      ...picks,
      inputs: opts.inputColumns
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean),
    };
  else {
    // All other columns by default: when the plan takes fewer, SPEC's sentence says so, with where to upgrade.
    const cap = inputCapMessage(columns, picks.target, plan);
    if (cap) s.out.notice(`${cap}: reading ${picks.inputs.join(', ')}. Upgrade: ${await s.baseUrl()}${CONTACT_PATH}`);
  }
  if (opts.task !== undefined) picks = { ...picks, task: opts.task as TaskName };
  const errors = checkFitPicks(columns, picks, plan);
  const problem = errors.target ?? errors.inputs ?? errors.task;
  if (problem) throw new CliError(problem);
  return picks;
}
