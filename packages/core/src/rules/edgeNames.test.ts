import { describe, expect, it } from 'vitest';
import { withEdgeNames } from './edgeNames';

describe('withEdgeNames', () => {
  it('adds id and status beside the wire names, at any depth, first in each object', () => {
    const out = withEdgeNames([
      { stamp: 'u1', name: 'Upload', flight: 'Ready', upload: { list: [{ stamp: 'f1', state: 'Finished' }] } },
      { run: { stamp: 'r1', state: 'Failed', rend: { stamp: 'u1', name: 'Upload' } } },
      { clue: 'k1', name: 'Key' },
    ]) as Record<string, unknown>[];
    expect(Object.keys(out[0]).slice(0, 2)).toEqual(['id', 'status']);
    expect(out[0]).toMatchObject({
      id: 'u1',
      status: 'Ready',
      stamp: 'u1',
      flight: 'Ready',
      upload: { list: [{ id: 'f1', status: 'Finished' }] },
    });
    expect(out[1]).toEqual({
      run: { id: 'r1', status: 'Failed', stamp: 'r1', state: 'Failed', rend: { id: 'u1', stamp: 'u1', name: 'Upload' } },
    });
    expect(out[2]).toEqual({ id: 'k1', clue: 'k1', name: 'Key' });
  });

  it('keeps an object’s own id and status, and leaves other values alone', () => {
    expect(withEdgeNames({ id: 'own', stamp: 's', status: 'mine', state: 'x' })).toEqual({
      id: 'own',
      stamp: 's',
      status: 'mine',
      state: 'x',
    });
    expect(withEdgeNames(['a', 1, null])).toEqual(['a', 1, null]);
    expect(withEdgeNames({ name: 'no id' })).toEqual({ name: 'no id' });
  });
});
