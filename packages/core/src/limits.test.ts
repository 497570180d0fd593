import { describe, expect, it } from 'vitest';
import { PLAN_LIMITS, UPLOAD_CONTEXTS } from './limits';

const MB = 1024 * 1024;

describe('plan limits (SPEC section 9)', () => {
  it('Individual', () => {
    expect(PLAN_LIMITS.Individual).toMatchObject({
      label: 'In Beta',
      maxFileSize: MB,
      inputColumns: 3,
      outputColumns: 5,
      rows: 5_000,
      taskTargetSize: 1,
      explainability: false,
      compute: 'CPU only',
    });
  });
  it('Enterprise, with the comparison table labels', () => {
    expect(PLAN_LIMITS.Enterprise).toMatchObject({
      maxFileSize: 10 * MB,
      inputColumns: 500,
      outputColumns: 500,
      rows: 1_000_000,
      taskTargetSize: 1,
      explainability: true,
      compute: 'GPU',
    });
    expect(PLAN_LIMITS.Enterprise.table).toMatchObject({
      maxFileSize: 'Unlimited',
      inputColumns: 'Unlimited',
      outputColumns: '500',
      rows: 'Unlimited',
    });
  });
  it('drop-zone extensions per context', () => {
    expect(UPLOAD_CONTEXTS.uploads.extensions).toEqual(['.json', '.npy', '.npz', '.pkl', '.pickle', '.sav', '.py', '.pt', '.txt']);
    expect(UPLOAD_CONTEXTS.fit.extensions).toEqual(['.json']);
    expect(UPLOAD_CONTEXTS.shrink).toEqual({ extensions: ['.py'], maxFiles: 1 });
  });
});
