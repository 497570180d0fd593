import { describe, expect, it } from 'vitest';
import { type CallName } from './calls';
import { CALLS } from './table';
import { loadCall } from './load';
import { CALL_NAMES } from './reference';

describe('a call loaded on its own (load.ts)', () => {
  it('names every call of the route table, and no other', () => {
    expect([...CALL_NAMES].sort()).toEqual(Object.keys(CALLS).sort());
  });

  it("finds each call in its reference group's module: the same entry as the whole table's", async () => {
    for (const name of CALL_NAMES) expect(await loadCall(name), name).toBe(CALLS[name as CallName]);
  });
});
