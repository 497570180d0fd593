// What the fit verbs share.
import {
  checkFitPicks,
  defaultPicks,
  extensionOf,
  namedColumns,
  FIT_FORM_MESSAGES,
  CONTACT_PATH,
  inputCapMessage,
  pickTarget,
  type FitPicks,
  type PlanName,
  type Upload,
  type TaskName,
} from '@portal/core';
import type { Session } from '../context';
import { CliError } from '../errors';
import type { Flag } from '../verb';

/** The upload a fit or a generate request reads. */
export const UPLOAD_FLAG: Flag = { flags: '--upload <id>', description: 'a Ready upload of the project (see portal uploads list)' };
/** A fit or a generate request's title. */
export const REQUEST_NAME_FLAG: Flag = { flags: '--name <name>', description: "the request's title (default: the upload's name)" };

export interface FitOptions {
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

/**
 * The picks of a fit by column name: the upload's analysed columns, the target given or the default one, the inputs
 * given or all others (up to the plan), the task given or the one the target implies; refused with core's sentences.
 */
export async function columnPicks(s: Session, chosen: Upload, opts: FitOptions, plan: PlanName): Promise<FitPicks | null> {
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
