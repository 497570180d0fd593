import { describe, expect, it } from 'vitest';
import { fitSizesOf } from './fitSizes';

const group = (name: string, cols: number | null, state = 'Finished') => ({ upload: { list: [{ name, state, meta: { cols } }] } });

describe('fitSizesOf', () => {
  it('takes the inputs from the analysed columns less the target, outputs within the plan', () => {
    expect(fitSizesOf(group('train.json', 4), 'Individual')).toEqual({ inputs: 3, outputs: 3 });
    expect(fitSizesOf(group('wide.json', 21), 'Individual')).toEqual({ inputs: 20, outputs: 5 });
    expect(fitSizesOf(group('wide.json', 21), 'Enterprise')).toEqual({ inputs: 20, outputs: 20 });
  });

  it('gives nothing without an analysed .json file', () => {
    expect(fitSizesOf(undefined, 'Individual')).toBeNull();
    expect(fitSizesOf(group('model.py', 4), 'Individual')).toBeNull();
    expect(fitSizesOf(group('train.json', null), 'Individual')).toBeNull();
    expect(fitSizesOf(group('train.json', 4, 'Pending'), 'Individual')).toBeNull();
  });
});
