// A fit by column names (FitParam's input_columns / target_columns): the task a target suggests, and what is wrong
// with a choice of columns, in sentences that name the column. The fit form, the server's check of a new fit and the
// worker all ask these, so the rule is written once.
import type { ColumnType } from '../contract/preview';
import type { TaskName } from '../limits';

/** What the rules need to know of a column (an upload preview's column has it). */
export interface ColumnFacts {
  name: string;
  type: ColumnType;
  /** Distinct values present, when known. */
  distinct?: number;
}

/** Most classes a classification target may have; more distinct values is a continuous target. */
export const CLASSES_MAX = 1000;
/** A whole-number target with at most this many distinct values reads as classes when the task is inferred. */
export const CLASSES_GUESS = 20;

const quoteList = (names: readonly string[], max = 12) =>
  names
    .slice(0, max)
    .map((n) => `"${n}"`)
    .join(', ') + (names.length > max ? ` and ${(names.length - max).toLocaleString('en-US')} more` : '');

export const FIT_COLUMN_MESSAGES = {
  missing: (name: string, have: readonly string[]) =>
    have.length
      ? `The upload has no column "${name}"; its columns are ${quoteList(have)}.`
      : `The upload has no column "${name}": its columns have no names.`,
  textForRegression: (name: string) =>
    `The target column "${name}" holds text; regression needs numbers: choose classification, or a numeric target column.`,
  continuousForClassification: (name: string) =>
    `The target column "${name}" holds continuous numbers; classification needs classes: choose regression, or a column of labels.`,
  tooManyClasses: (name: string) =>
    `The target column "${name}" has more than ${CLASSES_MAX.toLocaleString('en-US')} distinct values; classification needs class labels (use regression for continuous targets).`,
  sizes: (field: 'input_columns' | 'target_columns', named: number, size: 'input_column_size' | 'task_target_size', value: number) =>
    `${field} names ${named.toLocaleString('en-US')} column${named === 1 ? '' : 's'} but ${size} is ${value.toLocaleString('en-US')}; they must agree.`,
  onlyOne: 'Name both input_columns and target_columns, or neither.',
  twice: (name: string) => `The column "${name}" is named twice; name each column once.`,
  inputAndTarget: (name: string) => `The column "${name}" is both an input and a target; use it as one or the other.`,
  textTargets: (name: string) =>
    `The target column "${name}" holds text: classification on a text target learns that one column; name it alone as the target.`,
} as const;

/** The task a target column suggests: classes (text, categories, booleans, a few whole numbers) → classification. */
export function inferTask(c: ColumnFacts): TaskName {
  if (c.type === 'category' || c.type === 'boolean' || c.type === 'text') return 'classification';
  if (c.type === 'integer' && c.distinct !== undefined && c.distinct <= CLASSES_GUESS) return 'classification';
  return 'regression';
}

/** What is wrong with `c` as a target of `task`, or null. */
export function targetProblem(c: ColumnFacts, task: TaskName): string | null {
  const text = c.type === 'category' || c.type === 'text';
  if (task === 'regression') return text ? FIT_COLUMN_MESSAGES.textForRegression(c.name) : null;
  if (c.type === 'number') return FIT_COLUMN_MESSAGES.continuousForClassification(c.name);
  if ((c.distinct ?? 0) > CLASSES_MAX) return FIT_COLUMN_MESSAGES.tooManyClasses(c.name);
  return null;
}

interface NamedParam {
  input_column_size: number;
  task_target_size: number;
  task: TaskName;
  input_columns?: readonly string[];
  target_columns?: readonly string[];
}

/**
 * What is wrong with a fit's column names, or null. `columns` are the upload's columns as far as known; `complete`
 * says whether they are all of them (a preview keeps the first ones of a wide table): a name not among them is only
 * refused when they are. Checks that need the values (distinct counts) use what `columns` carry.
 */
export function fitColumnsProblem(p: NamedParam, columns: readonly ColumnFacts[], complete = true): string | null {
  const inputs = p.input_columns,
    targets = p.target_columns;
  if (!inputs && !targets) return null;
  if (!inputs || !targets) return FIT_COLUMN_MESSAGES.onlyOne;
  if (inputs.length !== p.input_column_size)
    return FIT_COLUMN_MESSAGES.sizes('input_columns', inputs.length, 'input_column_size', p.input_column_size);
  if (targets.length !== p.task_target_size)
    return FIT_COLUMN_MESSAGES.sizes('target_columns', targets.length, 'task_target_size', p.task_target_size);
  const seen = new Set<string>();
  for (const n of inputs) {
    if (seen.has(n)) return FIT_COLUMN_MESSAGES.twice(n);
    seen.add(n);
  }
  const seenTargets = new Set<string>();
  for (const n of targets) {
    if (seen.has(n)) return FIT_COLUMN_MESSAGES.inputAndTarget(n);
    if (seenTargets.has(n)) return FIT_COLUMN_MESSAGES.twice(n);
    seenTargets.add(n);
  }
  const byName = new Map(columns.map((c) => [c.name, c]));
  const names = columns.map((c) => c.name);
  for (const n of [...inputs, ...targets]) if (!byName.has(n) && complete) return FIT_COLUMN_MESSAGES.missing(n, names);
  for (const n of targets) {
    const c = byName.get(n);
    if (!c) continue;
    const problem = targetProblem(c, p.task);
    if (problem) return problem;
    if (p.task === 'classification' && targets.length > 1 && (c.type === 'category' || c.type === 'text'))
      return FIT_COLUMN_MESSAGES.textTargets(n);
  }
  return null;
}
