// The embedding map: PCA of the embeddings to 2D (covariance of a bounded sample, its top two eigenvectors by power
// iteration, every kept row projected), coloured by the target column or, without one, by k-means clusters.
import { PROJECTION_COLOUR_COLUMNS, PROJECTION_INPUTS, PROJECTION_MAX_POINTS, type Projection, type ProjectionColour } from '@portal/core';
import type { ColumnKind } from './shapes';

/** What the map may be coloured by: the upload's columns (names, kinds) and the target's place among them. */
export interface ColourSource {
  names: string[];
  kinds: ColumnKind[] | null;
  target: number | null;
}

const COLOUR_CELLS = 1_000_000;

/** Each of the first PROJECTION_COLOUR_COLUMNS columns (the target always among them) as a colour key per point. */
function colours(table: ArrayLike<number>, cols: number, row: readonly number[], src: ColourSource): ProjectionColour[] {
  // At most COLOUR_CELLS values in all, so a map of many points stays a few megabytes: fewer columns then.
  const fit = Math.max(1, Math.floor(COLOUR_CELLS / Math.max(1, row.length)));
  const picked = Array.from({ length: Math.min(cols, PROJECTION_COLOUR_COLUMNS, fit) }, (_, c) => c);
  if (src.target !== null && src.target >= picked.length && src.target < cols) picked[picked.length - 1] = src.target;
  return picked.map((c) => {
    const kind = src.kinds?.[c];
    const classes = kind && kind.type !== 'number' ? kind.levels : null;
    const key = row.map((r) => {
      const v = table[r * cols + c];
      return v === v ? v : null;
    });
    let whole = true;
    for (const v of key) if (v !== null && !Number.isInteger(v)) whole = false;
    const type = kind && kind.type !== 'number' ? kind.type : whole ? 'integer' : 'number';
    return { name: src.names[c] ?? `column ${c + 1}`, type, key, classes };
  });
}

/** Rows the covariance is estimated from: enough for two axes, bounded whatever the upload's size. */
const COVARIANCE_SAMPLE = 20_000;
const CLUSTERS = 4;

/** Rounds to 1/100,000 of the span of the values (decimals picked once): a map needs no more, and the JSON stays short. */
function rounder(values: Float64Array): (v: number) => number {
  let lo = Infinity,
    hi = -Infinity;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  const span = hi - lo;
  const decimals = span > 0 ? Math.max(0, Math.min(12, 5 - Math.floor(Math.log10(span)))) : 6;
  const s = 10 ** decimals;
  return (v) => Math.round(v * s) / s;
}

/** The top eigenvector of a symmetric matrix `c` (d×d) orthogonal to `not`, and its eigenvalue. */
function topVector(c: Float64Array, d: number, not: Float64Array | null): { v: Float64Array; value: number } {
  let v = new Float64Array(d).map((_, i) => 1 / Math.sqrt(d) + i * 1e-3);
  let value = 0;
  for (let it = 0; it < 200; it++) {
    if (not) {
      let dot = 0;
      for (let i = 0; i < d; i++) dot += v[i] * not[i];
      for (let i = 0; i < d; i++) v[i] -= dot * not[i];
    }
    const next = new Float64Array(d);
    for (let i = 0; i < d; i++) {
      let s = 0;
      for (let j = 0; j < d; j++) s += c[i * d + j] * v[j];
      next[i] = s;
    }
    const norm = Math.hypot(...next);
    if (norm < 1e-15) return { v, value: 0 };
    for (let i = 0; i < d; i++) next[i] /= norm;
    let diff = 0;
    for (let i = 0; i < d; i++) diff += Math.abs(next[i] - v[i]);
    v = next;
    value = norm;
    if (diff < 1e-9) break;
  }
  return { v, value };
}

const missingAs = <T>(v: number, instead: T): number | T => (v === v ? v : instead);

/** Points k-means fits its centres on; every point is then labelled by its nearest centre in one pass. */
const CLUSTER_SAMPLE = 2_000;

/** The nearest of the centres to (x, y). */
function nearestCentre(x: number, y: number, cx: readonly number[], cy: readonly number[]): number {
  let best = 0,
    dist = Infinity;
  for (let c = 0; c < cx.length; c++) {
    const d = (x - cx[c]) * (x - cx[c]) + (y - cy[c]) * (y - cy[c]);
    if (d < dist) {
      dist = d;
      best = c;
    }
  }
  return best;
}

/** k-means on an even sample of the 2D points, started farthest-first (deterministic), then every point labelled. */
function clusters(px: Float64Array, py: Float64Array): number[] {
  const every = Math.max(1, Math.floor(px.length / CLUSTER_SAMPLE));
  const x: number[] = [],
    y: number[] = [];
  for (let i = 0; i < px.length; i += every) {
    x.push(px[i]);
    y.push(py[i]);
  }
  const n = x.length;
  const k = Math.min(CLUSTERS, n);
  const cx: number[] = [x[0]],
    cy: number[] = [y[0]];
  while (cx.length < k) {
    let best = 0,
      far = -1;
    for (let i = 0; i < n; i++) {
      const c = nearestCentre(x[i], y[i], cx, cy);
      const near = (x[i] - cx[c]) ** 2 + (y[i] - cy[c]) ** 2;
      if (near > far) {
        far = near;
        best = i;
      }
    }
    cx.push(x[best]);
    cy.push(y[best]);
  }
  const label = new Array<number>(n).fill(-1);
  for (let it = 0; it < 12; it++) {
    let moved = 0;
    for (let i = 0; i < n; i++) {
      const c = nearestCentre(x[i], y[i], cx, cy);
      if (label[i] !== c) moved++;
      label[i] = c;
    }
    if (moved === 0) break;
    const sx = new Array<number>(k).fill(0),
      sy = new Array<number>(k).fill(0),
      m = new Array<number>(k).fill(0);
    for (let i = 0; i < n; i++) {
      sx[label[i]] += x[i];
      sy[label[i]] += y[i];
      m[label[i]]++;
    }
    for (let c = 0; c < k; c++) {
      if (m[c]) {
        cx[c] = sx[c] / m[c];
        cy[c] = sy[c] / m[c];
      }
    }
  }
  return Array.from(px, (v, i) => nearestCentre(v, py[i], cx, cy));
}

/**
 * The map of `rows` embeddings of `width` values (row-major), with each row's inputs (`table`, `cols` wide) and,
 * when `target` is a column of it, that column as the colour key.
 */
export function projectEmbeddings(
  emb: Float64Array,
  rows: number,
  width: number,
  table: ArrayLike<number>,
  cols: number,
  inputs: number,
  target: number | null,
  keyInfo: { name: string; classes: string[] | null } | null = null,
  colourSource: ColourSource | null = null,
): Projection {
  const d = width;
  const mean = new Float64Array(d);
  for (let r = 0; r < rows; r++) for (let j = 0; j < d; j++) mean[j] += emb[r * d + j] / rows;
  const step = Math.max(1, Math.floor(rows / COVARIANCE_SAMPLE));
  const cov = new Float64Array(d * d);
  let m = 0;
  for (let r = 0; r < rows; r += step, m++) {
    for (let i = 0; i < d; i++) {
      const a = emb[r * d + i] - mean[i];
      for (let j = i; j < d; j++) cov[i * d + j] += a * (emb[r * d + j] - mean[j]);
    }
  }
  let trace = 0;
  for (let i = 0; i < d; i++) {
    for (let j = i; j < d; j++) cov[j * d + i] = cov[i * d + j] /= Math.max(1, m);
    trace += cov[i * d + i];
  }
  const first = topVector(cov, d, null);
  const second = d > 1 ? topVector(cov, d, first.v) : { v: new Float64Array(d), value: 0 };
  const keep = Math.min(rows, PROJECTION_MAX_POINTS);
  const every = rows / keep;
  const px = new Float64Array(keep),
    py = new Float64Array(keep);
  const row: number[] = [];
  for (let p = 0; p < keep; p++) {
    const r = Math.floor(p * every);
    row.push(r);
    let a = 0,
      b = 0;
    for (let j = 0; j < d; j++) {
      const c = emb[r * d + j] - mean[j];
      a += c * first.v[j];
      b += c * second.v[j];
    }
    px[p] = a;
    py[p] = b;
  }
  const shown = Math.min(inputs, PROJECTION_INPUTS);
  return {
    x: Array.from(px, rounder(px)),
    y: Array.from(py, rounder(py)),
    // The target and inputs are the upload's own values, as the user wrote them.
    // A row whose target is missing has the key -1 (no class has it).
    key: target !== null && target < cols ? row.map((r) => missingAs(table[r * cols + target], -1)) : clusters(px, py),
    row,
    inputs: row.map((r) => {
      const values = new Array<number | null>(shown);
      for (let k = 0; k < shown; k++) values[k] = missingAs(table[r * cols + k], null);
      return values;
    }),
    ...(keyInfo && target !== null && target < cols ? { keyName: keyInfo.name, classes: keyInfo.classes } : {}),
    ...(colourSource ? { colours: colours(table, cols, row, colourSource) } : {}),
    keyKind: target !== null && target < cols ? 'target' : 'cluster',
    variance: [
      trace > 0 ? Math.round((first.value / trace) * 1e4) / 1e4 : 0,
      trace > 0 ? Math.round((second.value / trace) * 1e4) / 1e4 : 0,
    ],
    total: rows,
  };
}
