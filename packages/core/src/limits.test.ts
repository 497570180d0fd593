import { describe, expect, it } from 'vitest';
import { PLAN_LIMITS, PLAN_TABLE_ROWS, UPLOAD_CONTEXTS } from './limits';

const MB = 1024 * 1024;

describe('plan limits (SPEC section 9)', () => {
  // SPEC's table as SPEC lays it out: a row per limit, Individual then Enterprise.
  it.each([
    ['maxFileSize', MB, 10 * MB],
    ['inputColumns', 3, 500],
    ['outputColumns', 5, 500],
    ['rows', 5_000, 1_000_000],
    ['taskTargetSize', 1, 1],
    ['explainability', false, true],
    ['compute', 'CPU only', 'GPU'],
  ] as const)('%s', (limit, individual, enterprise) => {
    expect([PLAN_LIMITS.Individual[limit], PLAN_LIMITS.Enterprise[limit]]).toEqual([individual, enterprise]);
  });
  it('Individual is in beta', () => {
    expect(PLAN_LIMITS.Individual.label).toBe('In Beta');
  });
  it("the Compare Plans table prints SPEC's rows", () => {
    const table = PLAN_TABLE_ROWS.map(([k, label]) => [label, PLAN_LIMITS.Individual.table[k], PLAN_LIMITS.Enterprise.table[k]]);
    expect(table).toEqual([
      ['Max file size', '1 MB', 'Unlimited'],
      ['Input columns', '3', 'Unlimited'],
      ['Output columns', '5', '500'],
      ['Rows', '5,000', 'Unlimited'],
      ['Task target size', '1', '1'],
      ['Explainability', 'Not allowed', 'Allowed'],
      ['Compute', 'CPU only', 'GPU'],
    ]);
  });
  it('drop-zone extensions per context', () => {
    expect(UPLOAD_CONTEXTS.uploads.extensions).toEqual(['.json', '.npy', '.npz', '.pkl', '.pickle', '.sav', '.py', '.pt', '.txt']);
    expect(UPLOAD_CONTEXTS.fit.extensions).toEqual(['.json']);
    expect(UPLOAD_CONTEXTS.shrink).toEqual({ extensions: ['.py'], maxFiles: 1 });
  });
});
