// How good a trained model is, in words every door prints: the held-out score of a finished fit.
import type { RunMetrics } from '../contract/entities';

const rowsText = (n: number) => `${n.toLocaleString('en-US')} held-out ${n === 1 ? 'row' : 'rows'}`;

/** "Accuracy 93% on 6 held-out rows" or "R² 0.81 on 40 held-out rows (1 is perfect; 0 is no better than the mean)". */
export function metricsText(m: RunMetrics): string {
  if (m.name === 'accuracy') return `Accuracy ${Math.round(m.value * 1000) / 10}% on ${rowsText(m.rows)}`;
  return `R² ${m.value.toFixed(2)} on ${rowsText(m.rows)} (1 is perfect; 0 is no better than predicting the mean)`;
}

/** The score line of a request's details: a fit's held-out score, or when it comes; null for other requests. */
export function runScoreText(run: { function: string; state: string; metrics?: RunMetrics | null }): string | null {
  if (run.function !== 'fit') return null;
  if (run.metrics) return metricsText(run.metrics);
  if (run.state === 'Failed') return null;
  return run.state === 'Finished'
    ? 'Not measured for this model (trained before scores were kept)'
    : 'Measured on held-out rows when training finishes';
}
