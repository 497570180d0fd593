// `portal fit`: a request that trains a model on a Ready upload and transforms its data (pile → fit → generate);
// `portal generate`: a request that reuses a Finished model of the project instead (the generate run alone).
import type { Command } from 'commander';
import {
  MESSAGES,
  OPENAI_DEFAULT_DIMENSIONS,
  OPENAI_TEXT_MODEL_ID,
  TASKS,
  TITLE_MAX,
  checkFitRequest,
  checkDimensions,
  checkTitle,
  firstError,
  fitUploadProblem,
  reusableModels,
  type TaskName,
} from '@portal/core';
import type { Deps } from './context';
import { act, examples, integer } from './common';
import { CliError, usageError } from './errors';
import { RUN_SHOWN } from './runs';
import { showCommand } from './show';

interface FitOptions {
  upload?: string;
  inputs?: string;
  outputs?: string;
  target?: string;
  task: string;
  explain?: boolean;
  name?: string;
  wait?: boolean;
}

export function register(program: Command, deps: Deps): void {
  program
    .command('fit')
    .description('Create a request that trains a model on a Ready upload and transforms its data')
    .option('--upload <id>', 'a Ready upload of the project (see portal uploads list)')
    .option('--inputs <n>', 'input column size (1 to the plan maximum)')
    .option('--outputs <n>', 'output column size (1 to the plan maximum)')
    .option('--target <n>', 'task target size (1 to the plan maximum)')
    .option('--task <task>', `${TASKS.join(' or ')}`, 'regression')
    .option('--explain', 'compute explainability (not available on the Individual plan)')
    .option('--name <name>', "the request's title (default: the upload's name)")
    .option('--wait', 'follow the request until it is Finished or Failed')
    .addHelpText(
      'after',
      examples(
        'portal fit --upload <id> --inputs 3 --outputs 5 --target 1',
        'portal fit --upload <id> --inputs 3 --outputs 2 --target 1 --task classification --wait',
      ),
    )
    .action(
      act(deps, async (s, opts: FitOptions) => {
        if (!(TASKS as readonly string[]).includes(opts.task)) throw usageError(`--task must be one of: ${TASKS.join(', ')}`);
        const upload = await s.need(opts.upload, '--upload', 'Upload id');
        const inputs = integer(await s.need(opts.inputs, '--inputs', 'Input column size'), '--inputs');
        const outputs = integer(await s.need(opts.outputs, '--outputs', 'Output column size'), '--outputs');
        const target = integer(await s.need(opts.target, '--target', 'Task target size'), '--target');
        const { client, project } = await s.project();
        const api = await s.api();
        const { rend } = await api.calls.rendList({ active: 1, bucket: project.stamp });
        const chosen = rend.list.find((r) => r.stamp === upload);
        const unusable = fitUploadProblem(chosen);
        if (unusable || !chosen) throw new CliError(unusable ?? MESSAGES.uploadNotFound);
        const name = opts.name ?? chosen.name.slice(0, TITLE_MAX);
        const problem = firstError(
          checkFitRequest(
            { name, inputs: inputs ?? null, outputs: outputs ?? null, target: target ?? null, explainability: !!opts.explain, upload },
            client.plan,
          ),
        );
        if (problem) throw new CliError(problem);
        const { createFitRequest } = await import('./heavy');
        const runId = await createFitRequest(api, {
          bucket: project.stamp,
          upload,
          name,
          param: {
            explainability: !!opts.explain,
            input_column_size: inputs!,
            output_column_size: outputs!,
            task_target_size: target!,
            task: opts.task as TaskName,
          },
        });
        s.out.notice(`Created request ${runId} in ${project.name}`);
        await showCommand(s, RUN_SHOWN, runId, opts.wait);
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
