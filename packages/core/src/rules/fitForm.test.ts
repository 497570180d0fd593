import { describe, expect, it } from 'vitest';
import {
  checkFitPicks,
  defaultPicks,
  defaultTarget,
  FIT_FORM_MESSAGES,
  inputCapMessage,
  namedColumns,
  pickTarget,
  sizeLines,
  sizesFromPicks,
  toggleInput,
  type FitColumn,
} from './fitForm';
import { FIT_COLUMN_MESSAGES } from './fitColumns';

const num = (name: string): FitColumn => ({ name, type: 'number', missing: 0 });
const six = ['f1', 'f2', 'f3', 'f4', 'f5', 'f6'].map(num);
const flowers: FitColumn[] = [...six, { name: 'label', type: 'category', missing: 0, distinct: 3 }];

describe('the target column', () => {
  it('is a column named like label, target, y or class', () => {
    expect(defaultTarget(flowers)).toBe('label');
    expect(defaultTarget([num('a'), num('y')])).toBe('y');
    expect(defaultTarget([num('Target'), num('b')])).toBe('Target');
    expect(defaultTarget([num('a'), { name: 'species_class', type: 'category', missing: 0 }])).toBe('species_class');
  });
  it('is none picked otherwise, never silently the last column', () => {
    expect(defaultTarget(six)).toBe('');
    expect(defaultPicks(six, 'Enterprise').target).toBe('');
  });
});

describe('the picks an upload starts from', () => {
  it('reads every other column up to the plan, with the cap sentence and the task from the target', () => {
    const picks = defaultPicks(flowers, 'Individual');
    expect(picks).toEqual({ target: 'label', inputs: ['f1', 'f2', 'f3'], task: 'classification' });
    expect(inputCapMessage(flowers, 'label', 'Individual')).toBe('Individual plans are limited to 3 input features');
    expect(defaultPicks(flowers, 'Enterprise').inputs).toHaveLength(6);
    expect(inputCapMessage(flowers, 'label', 'Enterprise')).toBeNull();
  });
  it('moves the target out of the inputs and the old one back in when there is room', () => {
    const start = defaultPicks(flowers, 'Enterprise');
    const next = pickTarget(flowers, start, 'f6', 'Enterprise');
    expect(next.target).toBe('f6');
    expect(next.inputs).toEqual(['f1', 'f2', 'f3', 'f4', 'f5', 'label']);
    expect(next.task).toBe('regression');
    expect(toggleInput(flowers, next, 'f6')).toBe(next);
    expect(toggleInput(flowers, next, 'f2').inputs).toEqual(['f1', 'f3', 'f4', 'f5', 'label']);
  });
});

describe('the sizes sent', () => {
  it('are derived from the picks, each with a line saying what it means', () => {
    const picks = defaultPicks(flowers, 'Individual');
    expect(sizesFromPicks(picks, 'Individual')).toEqual({ inputs: 3, outputs: 3, target: 1 });
    const lines = sizeLines(picks, 3);
    expect(lines.inputs).toBe('Input column size 3: the model reads these 3 columns of each row (f1, f2, f3).');
    expect(lines.outputs).toMatch(/^Output column size 3: each row becomes a vector of 3 numbers/);
    expect(lines.target).toBe('Task target size 1: the model learns to predict label (its classes).');
  });
});

describe('checkFitPicks', () => {
  it('passes good picks', () => {
    expect(checkFitPicks(flowers, defaultPicks(flowers, 'Individual'), 'Individual')).toEqual({});
  });
  it('asks for a target and inputs, within the plan', () => {
    expect(checkFitPicks(six, defaultPicks(six, 'Individual'), 'Individual').target).toBe(FIT_FORM_MESSAGES.pickTarget);
    expect(checkFitPicks(flowers, { target: 'label', inputs: [], task: 'classification' }, 'Individual').inputs).toBe(
      FIT_FORM_MESSAGES.pickInputs,
    );
    const four = { target: 'label', inputs: ['f1', 'f2', 'f3', 'f4'], task: 'classification' as const };
    expect(checkFitPicks(flowers, four, 'Individual').inputs).toBe('Individual plans are limited to 3 input features');
    expect(checkFitPicks(flowers, { ...four, inputs: ['nope'] }, 'Individual').inputs).toBe(
      'The upload has no column "nope"; its columns are "f1", "f2", "f3", "f4", "f5", "f6", "label".',
    );
  });
  it('refuses a text target for regression and a continuous one for classification, naming the column', () => {
    expect(checkFitPicks(flowers, { target: 'label', inputs: ['f1'], task: 'regression' }, 'Individual').task).toBe(
      FIT_COLUMN_MESSAGES.textForRegression('label'),
    );
    expect(checkFitPicks(flowers, { target: 'f6', inputs: ['f1'], task: 'classification' }, 'Individual').task).toBe(
      FIT_COLUMN_MESSAGES.continuousForClassification('f6'),
    );
  });
});

describe('namedColumns', () => {
  it('offers a named table and leaves a bare matrix to the sizes', () => {
    expect(namedColumns({ kind: 'table', columns: flowers, shape: 'records' })).toHaveLength(7);
    expect(namedColumns({ kind: 'table', columns: flowers, shape: 'matrix' })).toEqual([]);
    expect(namedColumns({ kind: 'table', columns: [num('column 1'), num('column 2')] })).toEqual([]);
    expect(namedColumns({ kind: 'texts', columns: flowers })).toEqual([]);
  });
});
