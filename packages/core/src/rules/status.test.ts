import { describe, expect, it } from 'vitest';
import type { Upload } from '../contract';
import { requestFunctionLabel, SHRINK_REASONS, shrinkChoice, statusTone } from './index';

describe('statusTone', () => {
  it('gives every state a colour category, unknown states neutral', () => {
    expect(['Finished', 'Ready', 'Paid'].map(statusTone)).toEqual(['success', 'success', 'success']);
    expect(statusTone('Failed')).toBe('error');
    expect(['Pending', 'Preparing', 'Processing'].map(statusTone)).toEqual(['progress', 'progress', 'progress']);
    expect(statusTone('Unpaid')).toBe('warning');
    expect(statusTone('Archived')).toBe('neutral');
    expect(statusTone(null)).toBe('neutral');
  });

  it('tells fit and generate requests apart, the API word first', () => {
    expect(requestFunctionLabel('fit')).toMatch(/^Fit /);
    expect(requestFunctionLabel('generate')).toMatch(/^Generate /);
    expect(requestFunctionLabel('fit')).not.toBe(requestFunctionLabel('generate'));
    expect(requestFunctionLabel('other')).toBe('other');
  });
});

const item = (name: string, state = 'Finished', inputs: number | null = 10) => ({
  stamp: `u_${name}`,
  name,
  state: state as 'Finished',
  file: { checksum: 'x', name, size: 1 },
  meta: { proc: 1 as const, cols: null, rows: null, inputs, error: null },
  error: null,
  createdAt: 1,
});
const upload = (flight: Upload['flight'], items: ReturnType<typeof item>[]): Upload => ({
  stamp: 'r_1',
  name: 'r',
  flight,
  createdAt: 1,
  runs: 0,
  upload: { list: items },
  box: { list: [] },
});

describe('shrinkChoice', () => {
  it('accepts a Ready upload of one Finished .py model with parameters', () => {
    expect(shrinkChoice(upload('Ready', [item('model.py')]))).toEqual({ ok: true });
  });

  it('refuses every other upload with the reason', () => {
    const reason = (r: Upload) => (shrinkChoice(r) as { reason: string }).reason;
    expect(reason(upload('Pending', [item('model.py', 'Pending')]))).toBe(SHRINK_REASONS.analysing);
    expect(reason(upload('Processing', [item('model.py', 'Preparing')]))).toBe(SHRINK_REASONS.analysing);
    expect(reason(upload('Failed', [item('model.py', 'Failed')]))).toBe(SHRINK_REASONS.failed);
    expect(reason(upload('Ready', [item('data.json')]))).toBe(SHRINK_REASONS.noModel);
    expect(reason(upload('Ready', [item('model.py'), item('data.json')]))).toBe(SHRINK_REASONS.manyFiles);
    expect(reason(upload('Ready', [item('model.py', 'Finished', 0)]))).toBe(SHRINK_REASONS.noParameters);
  });
});
