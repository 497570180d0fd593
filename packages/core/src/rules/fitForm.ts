// The data-aware fit form: which column is the target, which are inputs, which task, and SPEC's three sizes derived
// from those picks. Every door's fit form reads these; what a pick may be is fitColumns' rule (the server's too).
import { PLAN_LIMITS, type PlanName, type TaskName } from '../limits';
import { checkFitSize } from './forms';
import { FIT_COLUMN_MESSAGES, inferTask, targetProblem, type ColumnFacts } from './fitColumns';

/** What the form reads of an upload's analysed column (the preview's column). */
export interface FitColumn extends ColumnFacts {
  missing: number;
}

/**
 * The columns a fit can pick by name: a table's, when it names them (a header, records, split, a dict of columns); a
 * bare matrix's columns are only numbered, so it is fitted by SPEC's sizes. Empty when there is nothing to pick.
 */
export function namedColumns(
  preview:
    | {
        kind: string;
        columns: readonly FitColumn[];
        shape?: string | null;
      }
    | null
    | undefined,
): FitColumn[] {
  if (!preview || preview.kind !== 'table' || preview.shape === 'matrix') return [];
  // A preview from before tables were read by shape numbers a matrix's columns: "column 1", "column 2", ...
  if (preview.columns.every((c, i) => c.name === `column ${i + 1}`)) return [];
  return [...preview.columns];
}

/** The user's picks on the form. */
export interface FitPicks {
  /** The target column's name; '' for none picked yet. */
  target: string;
  inputs: string[];
  task: TaskName;
}

/** Names a target column goes by (scikit-learn's y, pandas' label or target, a class column). */
const TARGET_NAME = /^(y|label|labels|target|class|classes|(.*[_\s.-])?(label|target|class))$/i;

/** The column a fit learns by default: one named like label/target/y/class; none otherwise (never the last one). */
export function defaultTarget(columns: readonly FitColumn[]): string {
  return columns.find((c) => TARGET_NAME.test(c.name.trim()))?.name ?? '';
}

/** The plan's maximum of input columns. */
export const maxInputs = (plan: PlanName): number => PLAN_LIMITS[plan].inputColumns;

/** The inputs by default: every column but the target, in the table's order, the first ones up to the plan's maximum. */
export function defaultInputs(columns: readonly FitColumn[], target: string, plan: PlanName): string[] {
  return columns
    .filter((c) => c.name !== target)
    .map((c) => c.name)
    .slice(0, maxInputs(plan));
}

/** The task a picked target implies (regression while none is picked). */
const taskOf = (columns: readonly FitColumn[], target: string): TaskName => {
  const c = columns.find((x) => x.name === target);
  return c ? inferTask(c) : 'regression';
};

/** The picks a freshly chosen upload starts from. */
export function defaultPicks(columns: readonly FitColumn[], plan: PlanName): FitPicks {
  const target = defaultTarget(columns);
  return { target, inputs: defaultInputs(columns, target, plan), task: taskOf(columns, target) };
}

/** The picks after the target changes: it leaves the inputs, and the task follows it. */
export function pickTarget(columns: readonly FitColumn[], picks: FitPicks, target: string, plan: PlanName): FitPicks {
  const had = picks.target;
  let inputs = picks.inputs.filter((n) => n !== target);
  // The old target goes back among the inputs when there is room (it was an input before it was picked).
  if (had && had !== target && inputs.length < maxInputs(plan))
    inputs = columns.map((c) => c.name).filter((n) => n === had || inputs.includes(n));
  return { target, inputs, task: taskOf(columns, target) };
}

/** Turns one input column on or off (the target is never an input). */
export function toggleInput(columns: readonly FitColumn[], picks: FitPicks, name: string): FitPicks {
  if (name === picks.target) return picks;
  const on = picks.inputs.includes(name) ? picks.inputs.filter((n) => n !== name) : [...picks.inputs, name];
  return { ...picks, inputs: columns.map((c) => c.name).filter((n) => on.includes(n)) };
}

/** SPEC's three sizes from the picks: inputs are the input columns, outputs (the vectors' width) start at the inputs within the plan, the target is one column. */
export function sizesFromPicks(picks: FitPicks, plan: PlanName): { inputs: number; outputs: number; target: number } {
  const inputs = picks.inputs.length;
  return { inputs, outputs: Math.max(1, Math.min(inputs, PLAN_LIMITS[plan].outputColumns)), target: picks.target ? 1 : 0 };
}

/** One line on each of SPEC's three sizes, for this table's picks. */
export function sizeLines(picks: FitPicks, outputs: number): { inputs: string; outputs: string; target: string } {
  const n = picks.inputs.length;
  return {
    inputs: `Input column size ${n}: the model reads ${n === 1 ? 'this column' : `these ${n} columns`} of each row${n ? ` (${picks.inputs.join(', ')})` : ''}.`,
    outputs: `Output column size ${outputs}: each row becomes a vector of ${outputs} ${outputs === 1 ? 'number' : 'numbers'} (the embedding you download).`,
    target: picks.target
      ? `Task target size 1: the model learns to predict ${picks.target} (${picks.task === 'classification' ? 'its classes' : 'its value'}).`
      : 'Task target size 1: pick the column the model learns to predict.',
  };
}

/** Sentences of the form's picks (what a pick may be says fitColumns' FIT_COLUMN_MESSAGES; the plan's, MESSAGES). */
export const FIT_FORM_MESSAGES = {
  pickTarget: 'Pick the target column: the column the model learns to predict',
  pickInputs: 'Pick at least one input column',
} as const;

export type FitColumnErrors = Partial<Record<'target' | 'inputs' | 'task', string>>;

/** What is wrong with the picks (empty when they can be sent): the target, the inputs within the plan, the task. */
export function checkFitPicks(columns: readonly FitColumn[], picks: FitPicks, plan: PlanName): FitColumnErrors {
  const errors: FitColumnErrors = {};
  const target = columns.find((c) => c.name === picks.target);
  const names = columns.map((c) => c.name);
  if (!picks.target) errors.target = FIT_FORM_MESSAGES.pickTarget;
  else if (!target) errors.target = FIT_COLUMN_MESSAGES.missing(picks.target, names);
  const unknown = picks.inputs.find((n) => !names.includes(n));
  if (picks.inputs.length === 0) errors.inputs = FIT_FORM_MESSAGES.pickInputs;
  else if (unknown) errors.inputs = FIT_COLUMN_MESSAGES.missing(unknown, names);
  else if (picks.target && picks.inputs.includes(picks.target)) errors.inputs = FIT_COLUMN_MESSAGES.inputAndTarget(picks.target);
  else {
    const limit = checkFitSize('inputs', picks.inputs.length, plan);
    if (limit) errors.inputs = limit;
  }
  const wrongTask = target ? targetProblem(target, picks.task) : null;
  if (wrongTask) errors.task = wrongTask;
  return errors;
}

/** The cap's sentence when a table has more columns to read than the plan takes (SPEC's, with its upgrade link). */
export function inputCapMessage(columns: readonly FitColumn[], target: string, plan: PlanName): string | null {
  const others = columns.filter((c) => c.name !== target).length;
  return others > maxInputs(plan) ? checkFitSize('inputs', others, plan) : null;
}
