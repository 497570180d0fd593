import { describe, expect, it } from 'vitest';
import { metricsText, runScoreText } from './metrics';

describe('metricsText', () => {
  it('says accuracy as a percentage and R² with what its ends mean, with the held-out rows', () => {
    expect(metricsText({ name: 'accuracy', value: 0.9333, rows: 6 })).toBe('Accuracy 93.3% on 6 held-out rows');
    expect(metricsText({ name: 'r2', value: 0.812, rows: 1 })).toBe(
      'R² 0.81 on 1 held-out row (1 is perfect; 0 is no better than predicting the mean)',
    );
  });
});

describe('runScoreText', () => {
  it("is a fit's score, or when it comes; nothing for other requests", () => {
    expect(runScoreText({ function: 'fit', state: 'Finished', metrics: { name: 'accuracy', value: 1, rows: 6 } })).toBe(
      'Accuracy 100% on 6 held-out rows',
    );
    expect(runScoreText({ function: 'fit', state: 'Processing' })).toBe('Measured on held-out rows when training finishes');
    expect(runScoreText({ function: 'generate', state: 'Finished' })).toBeNull();
  });
});
