// Prepare: a fit's table as the network learns it: inputs encoded and standardised over the training rows, targets
// standardised (regression) or turned into class indexes (classification).
import { CLASSES_MAX, type FitParam } from '@portal/core';
import type { Table } from './table';
import { encodeInputs, type InputEncoding } from './encoding';

/** Which columns a fit reads and learns: places in the table, and how the inputs are encoded. */
export interface Layout {
  task: FitParam['task'];
  inputIndex: number[];
  targets: number[];
  encoding: InputEncoding[];
}

export interface Prepared {
  n: number;
  nIn: number;
  /** Standardised inputs, row-major n × nIn (nIn counts one-hot features). */
  x: Float64Array;
  /** Regression: standardised targets n × nOut. Classification: class index per row. */
  y: Float64Array;
  nOut: number;
  classes: number[] | null;
  classNames: string[] | null;
  inputMean: number[];
  inputStd: number[];
  targetMean: number[] | null;
  targetStd: number[] | null;
}

/** Mean and standard deviation of each of `count` columns over the rows of `rowsIdx`, missing (NaN) values left out. */
function meanStd(vals: Float64Array, stride: number, offset: number, count: number, rowsIdx: Int32Array): [number[], number[]] {
  const mean = new Array<number>(count).fill(0);
  const sd = new Array<number>(count).fill(0);
  const seen = new Array<number>(count).fill(0);
  for (const r of rowsIdx)
    for (let k = 0; k < count; k++) {
      const v = vals[r * stride + offset + k];
      if (v === v) {
        mean[k] += v;
        seen[k]++;
      }
    }
  for (let k = 0; k < count; k++) mean[k] /= Math.max(1, seen[k]);
  for (const r of rowsIdx)
    for (let k = 0; k < count; k++) {
      const d = vals[r * stride + offset + k] - mean[k];
      if (d === d) sd[k] += d * d;
    }
  for (let k = 0; k < count; k++) {
    const s = Math.sqrt(sd[k] / Math.max(1, seen[k]));
    sd[k] = s > 1e-12 ? s : 1;
  }
  return [mean, sd];
}

/** Standardises a raw feature matrix with a mean and deviation; a missing value becomes the mean (0). */
export function standardise(raw: Float64Array, n: number, nIn: number, mean: readonly number[], std: readonly number[]): Float64Array {
  const x = new Float64Array(n * nIn);
  for (let r = 0; r < n; r++)
    for (let k = 0; k < nIn; k++) {
      const v = (raw[r * nIn + k] - mean[k]) / std[k];
      x[r * nIn + k] = v === v ? v : 0;
    }
  return x;
}

export function prepare(t: Table, layout: Layout, trainIdx: Int32Array): Prepared {
  const n = t.rows,
    nT = layout.targets.length,
    stride = t.cols;
  const v = t.values!;
  const raw = encodeInputs(t, layout.encoding, layout.inputIndex);
  const nIn = raw.width;
  const [inputMean, inputStd] = meanStd(raw.values, nIn, 0, nIn, trainIdx);
  const x = standardise(raw.values, n, nIn, inputMean, inputStd);
  const cls = { classes: null, classNames: null, targetMean: null, targetStd: null };
  const targetsRaw = new Float64Array(n * nT);
  for (let r = 0; r < n; r++) for (let k = 0; k < nT; k++) targetsRaw[r * nT + k] = v[r * stride + layout.targets[k]];
  if (layout.task === 'regression') {
    const [targetMean, targetStd] = meanStd(targetsRaw, nT, 0, nT, trainIdx);
    const y = new Float64Array(n * nT);
    for (let r = 0; r < n; r++) for (let k = 0; k < nT; k++) y[r * nT + k] = (targetsRaw[r * nT + k] - targetMean[k]) / targetStd[k];
    return { n, nIn, x, y, nOut: nT, ...cls, inputMean, inputStd, targetMean, targetStd };
  }
  const y = new Float64Array(n);
  if (nT === 1) {
    const distinct = new Set<number>();
    for (let r = 0; r < n; r++) {
      const c = targetsRaw[r];
      if (c !== c) continue;
      distinct.add(c);
      if (distinct.size > CLASSES_MAX)
        throw new Error(
          'The target column has more than 1,000 distinct values; classification needs class labels (use regression for continuous targets).',
        );
    }
    if (distinct.size < 2) throw new Error('The target column has a single value; classification needs at least two classes.');
    const classes = [...distinct].sort((a, b) => a - b);
    const index = new Map(classes.map((c, i) => [c, i]));
    for (let r = 0; r < n; r++) y[r] = index.get(targetsRaw[r]) ?? NaN;
    const levels = t.kinds?.[layout.targets[0]]?.levels ?? null;
    const classNames = levels ? classes.map((c) => levels[c]) : null;
    return { n, nIn, x, y, nOut: classes.length, ...cls, classes, classNames, inputMean, inputStd };
  }
  // Several target columns in classification are one score per class: the largest names the class.
  for (let r = 0; r < n; r++) {
    let best = 0;
    for (let k = 1; k < nT; k++) if (targetsRaw[r * nT + k] > targetsRaw[r * nT + best]) best = k;
    y[r] = best;
  }
  return { n, nIn, x, y, nOut: nT, ...cls, inputMean, inputStd };
}
