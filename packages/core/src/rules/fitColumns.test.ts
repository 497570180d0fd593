import { describe, expect, it } from 'vitest';
import { FIT_COLUMN_MESSAGES, fitColumnsProblem, inferTask, targetProblem } from './fitColumns';

const cols = [
  { name: 'f1', type: 'number' as const },
  { name: 'f2', type: 'integer' as const, distinct: 500 },
  { name: 'label', type: 'category' as const, distinct: 3 },
];
const base = { input_column_size: 2, task_target_size: 1, task: 'classification' as const };

describe('a fit by column names', () => {
  it('infers the task from the target: classes are classification, numbers regression', () => {
    expect(inferTask(cols[2])).toBe('classification');
    expect(inferTask(cols[0])).toBe('regression');
    expect(inferTask({ name: 'y', type: 'integer', distinct: 3 })).toBe('classification');
    expect(inferTask(cols[1])).toBe('regression');
  });

  it('refuses a text target for regression and a continuous one for classification, naming the column', () => {
    expect(targetProblem(cols[2], 'regression')).toBe(FIT_COLUMN_MESSAGES.textForRegression('label'));
    expect(targetProblem(cols[0], 'classification')).toContain('"f1" holds continuous numbers');
    expect(targetProblem(cols[2], 'classification')).toBeNull();
  });

  it('checks names against the sizes and the upload', () => {
    expect(fitColumnsProblem({ ...base, input_columns: ['f1', 'f2'], target_columns: ['label'] }, cols)).toBeNull();
    expect(fitColumnsProblem({ ...base, input_columns: ['f1'], target_columns: ['label'] }, cols)).toBe(
      'input_columns names 1 column but input_column_size is 2; they must agree.',
    );
    expect(fitColumnsProblem({ ...base, input_columns: ['f1', 'nope'], target_columns: ['label'] }, cols)).toBe(
      'The upload has no column "nope"; its columns are "f1", "f2", "label".',
    );
    expect(fitColumnsProblem({ ...base, input_columns: ['f1', 'nope'], target_columns: ['label'] }, cols, false)).toBeNull();
    expect(fitColumnsProblem({ ...base, input_columns: ['f1', 'label'], target_columns: ['label'] }, cols)).toBe(
      FIT_COLUMN_MESSAGES.inputAndTarget('label'),
    );
    expect(fitColumnsProblem({ ...base, input_columns: ['f1', 'f2'] }, cols)).toBe(FIT_COLUMN_MESSAGES.onlyOne);
    expect(fitColumnsProblem(base, cols)).toBeNull();
  });
});
