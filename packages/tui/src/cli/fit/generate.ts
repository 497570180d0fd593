// `portal generate`: see its summary.
import {
  MESSAGES,
  OPENAI_DEFAULT_DIMENSIONS,
  OPENAI_TEXT_MODEL_ID,
  TITLE_MAX,
  checkDimensions,
  checkTitle,
  fitUploadProblem,
  reusableModels,
} from '@portal/core';
import { CliError } from '../errors';
import { RUN_SHOWN } from '../runs/shared';
import { showCommand } from '../show';
import { REQUEST_NAME_FLAG, UPLOAD_FLAG } from './shared';
import type { Session } from '../context';
import { REQUEST_WAIT_FLAG, type VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'generate',
  summary: "Create a request that reuses one of the project's Finished models, or a general model, on a Ready upload (no training)",
  flags: [
    {
      flags: '--model <id>',
      description: 'a Finished model of the project, or a general model such as general-tabular-regression (see portal models list)',
    },
    UPLOAD_FLAG,
    REQUEST_NAME_FLAG,
    {
      flags: '--dimensions <n>',
      description: `values per vector, for ${OPENAI_TEXT_MODEL_ID} only (default ${OPENAI_DEFAULT_DIMENSIONS})`,
    },
    REQUEST_WAIT_FLAG,
  ],
  examples: [
    'portal generate --model <id> --upload <id>',
    'portal generate --model <id> --upload <id> --wait --json',
    `portal generate --model ${OPENAI_TEXT_MODEL_ID} --upload <id> --dimensions 256 --wait`,
  ],
};

export interface GenerateOptions {
  model?: string;
  upload?: string;
  name?: string;
  dimensions?: string;
  wait?: boolean;
}

export async function run(opts: GenerateOptions, s: Session): Promise<void> {
  const model = await s.need(opts.model, '--model', 'Model id');
  const upload = await s.need(opts.upload, '--upload', 'Upload id');
  const { project } = await s.project();
  const api = await s.api();
  const [{ rend: uploads }, models, general] = await Promise.all([
    api.calls.rendList({ active: 1, bucket: project.stamp }),
    api.calls.clientModelList({ active: 1, bucket: project.stamp }),
    api.calls.generalModelList({ active: 1 }),
  ]);
  const chosen = uploads.list.find((r) => r.stamp === upload);
  const unusable = fitUploadProblem(chosen);
  if (unusable || !chosen) throw new CliError(unusable ?? MESSAGES.uploadNotFound);
  if (!reusableModels(models.model.list, general.model.list).some((m) => m.stamp === model))
    throw new CliError(
      `${MESSAGES.selectModel}: ${model} is neither a Finished model of ${project.name} nor a general model (see portal models list)`,
    );
  const name = opts.name ?? chosen.name.slice(0, TITLE_MAX);
  const problem = checkTitle(name, 'create') ?? (opts.dimensions === undefined ? null : checkDimensions(opts.dimensions));
  if (problem) throw new CliError(problem);
  const { createReuseRequest } = await import('../heavy');
  const dimensions = opts.dimensions === undefined ? undefined : Number(opts.dimensions);
  const runId = await createReuseRequest(api, { project: project.stamp, upload, model, name, dimensions });
  s.out.notice(`Created request ${runId} in ${project.name}`);
  await showCommand(s, RUN_SHOWN, runId, opts.wait);
}
