// Rows read from the drivers' arrays read like pg's objects: by name, destructured, as JSON.
import { describe, expect, it } from 'vitest';
import { rowsOf } from './arrayRows';

describe('arrayRows', () => {
  it("reads each column by its name, one class for a set of names, a later column of the same name winning as in pg's objects", () => {
    const [a, b] = rowsOf<{ k: number; stamp: string; size: number | null }>({
      names: ['k', 'stamp', 'size'],
      rows: [
        [0, 'r_1', null],
        [1, 'r_2', 12],
      ],
    });
    expect([a.k, a.stamp, a.size]).toEqual([0, 'r_1', null]);
    const { stamp, size } = b;
    expect([stamp, size]).toEqual(['r_2', 12]);
    const [again] = rowsOf<{ stamp: string }>({ names: ['k', 'stamp', 'size'], rows: [[2, 'r_3', 1]] });
    expect(Object.getPrototypeOf(again)).toBe(Object.getPrototypeOf(a));
    expect(JSON.parse(JSON.stringify(b))).toEqual({ k: 1, stamp: 'r_2', size: 12 });
    const [twice] = rowsOf<{ name: string }>({ names: ['name', 'name'], rows: [['first', 'second']] });
    expect(twice.name).toBe('second');
  });
});
