// Generate: applies a trained model (or a general model's fixed projection) to an upload's rows and writes the
// embeddings file.
import { writeFile } from 'node:fs/promises';
import type { Table } from './table';
import { rowReporter, type Reporter } from './progress';
import { Net, plural, readTable, rng, type EmbeddingModel } from './network';
import { columnNamesOf, encodeInputs } from './encoding';
import { standardise } from './prepare';
import { projectEmbeddings } from './projection';
import type { Projection } from '@portal/core';

/** What a generate wrote: its size, and the map of its embeddings. */
export interface Generated {
  rows: number;
  width: number;
  projection: Projection;
}

function asModel(m: unknown): EmbeddingModel {
  const x = m as EmbeddingModel;
  const ok =
    x &&
    typeof x === 'object' &&
    x.format === 'portal-embedding-mlp' &&
    Number.isInteger(x.inputs) &&
    Number.isInteger(x.hidden) &&
    Number.isInteger(x.width) &&
    Array.isArray(x.w1) &&
    x.w1.length === x.hidden * x.inputs &&
    Array.isArray(x.w2) &&
    x.w2.length === x.width * x.hidden &&
    Array.isArray(x.b1) &&
    Array.isArray(x.b2) &&
    Array.isArray(x.inputMean) &&
    Array.isArray(x.inputStd);
  if (!ok) throw new Error('The fitted model of this request is damaged; please run the fit again.');
  return x;
}

/** A general model: no trained weights, only its id; its embedding is defined without anyone's training data. */
export interface GeneralModel {
  format: 'portal-general-projection';
  id: string;
}

/** The widest embedding a general model writes: min(columns of the upload, GENERAL_WIDTH). */
export const GENERAL_WIDTH = 5;

/** FNV-1a of the model id: the projection's seed, the same on every machine. */
function seedOf(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * A general model applied to an upload: every column is an input, standardised over the upload's own rows
 * (a constant column becomes 0), then a fixed random projection seeded from the model id (uniform weights of
 * unit variance, scaled by 1/√columns) to min(columns, 5) values, through tanh.
 */
async function generateGeneral(m: GeneralModel, table: Table, outPath: string, report?: Reporter) {
  const cols = table.cols,
    rows = table.rows,
    v = table.values!;
  if (cols < 1 || rows < 1) throw new Error('The upload has no numeric values to embed: upload a .json with at least one row of numbers.');
  const width = Math.min(cols, GENERAL_WIDTH);
  const mean = new Float64Array(cols),
    std = new Float64Array(cols);
  if (table.kinds) {
    // Missing values (NaN) are left out of the statistics and read as the mean.
    const seen = new Float64Array(cols);
    for (let r = 0; r < rows; r++)
      for (let k = 0; k < cols; k++) {
        const x = v[r * cols + k];
        if (x !== x) continue;
        mean[k] += x;
        seen[k]++;
      }
    for (let k = 0; k < cols; k++) mean[k] /= Math.max(1, seen[k]);
    for (let r = 0; r < rows; r++)
      for (let k = 0; k < cols; k++) {
        const x = v[r * cols + k];
        if (x === x) std[k] += (x - mean[k]) ** 2 / Math.max(1, seen[k]);
      }
  } else {
    for (let r = 0; r < rows; r++) for (let k = 0; k < cols; k++) mean[k] += v[r * cols + k] / rows;
    for (let r = 0; r < rows; r++) for (let k = 0; k < cols; k++) std[k] += (v[r * cols + k] - mean[k]) ** 2 / rows;
  }
  for (let k = 0; k < cols; k++) std[k] = std[k] > 1e-12 ? Math.sqrt(std[k]) : 1;
  const rand = rng(seedOf(m.id));
  const scale = Math.sqrt(3 / cols);
  const w = Float64Array.from({ length: width * cols }, () => (rand() * 2 - 1) * scale);
  const lines: string[] = [];
  const progress = rowReporter(report, rows);
  const e = new Float64Array(width);
  const all = new Float64Array(rows * width);
  for (let r = 0; r < rows; r++) {
    if ((r & 1023) === 0) progress(r);
    e.fill(0);
    for (let k = 0; k < cols; k++) {
      const raw = (v[r * cols + k] - mean[k]) / std[k];
      const x = raw === raw ? raw : 0;
      for (let j = 0; j < width; j++) e[j] += w[j * cols + k] * x;
    }
    for (let j = 0; j < width; j++) all[r * width + j] = e[j] = Math.tanh(e[j]);
    lines.push(`[${Array.from(e, (z) => Number(z.toPrecision(7))).join(',')}]`);
  }
  progress(rows);
  const task = m.id.includes('classification') ? 'classification' : 'regression';
  const head = JSON.stringify({ rows, width, inputs: cols, task, model: m.id, format: 'embeddings' });
  await writeFile(outPath, `${head.slice(0, -1)},"embeddings":[\n${lines.join(',\n')}\n]}\n`);
  // The file is written: its lines go before the map is made, so collecting them does not slow the map.
  lines.length = 0;
  // Every column is an input here: the map is coloured by cluster.
  return {
    rows,
    width,
    projection: projectEmbeddings(all, rows, width, v, cols, cols, null, null, {
      names: columnNamesOf(table),
      kinds: table.kinds,
      target: null,
    }),
  };
}

export async function generateEmbeddings(
  model: unknown,
  dataPath: string,
  outPath: string,
  opts: { report?: Reporter } = {},
): Promise<Generated> {
  const general = model as GeneralModel | null;
  if (general && general.format === 'portal-general-projection' && typeof general.id === 'string')
    return generateGeneral(general, await readTable(dataPath), outPath, opts.report);
  const m = asModel(model);
  const table = await readTable(dataPath);
  const enc = m.encoding;
  if (!enc && table.cols < m.inputs) {
    throw new Error(`Row 1 has ${plural(table.cols, 'value')}; this model needs ${plural(m.inputs, 'input')} per row.`);
  }
  // A model by name reads its columns by name (by place when this upload's columns have no names).
  const placeOf = (c: { name: string; index: number }): number | null => {
    if (table.columns) {
      const i = table.columns.indexOf(c.name);
      return i < 0 ? null : i;
    }
    return c.index < table.cols ? c.index : null;
  };
  let x: Float64Array;
  if (enc) {
    const idx = enc.inputs.map((c) => {
      const i = placeOf(c);
      if (i === null) throw new Error(`The upload has no column "${c.name}", which this model reads.`);
      return i;
    });
    const raw = encodeInputs(table, enc.inputs, idx);
    if (raw.width !== m.inputs) throw new Error('The fitted model of this request is damaged; please run the fit again.');
    x = standardise(raw.values, table.rows, m.inputs, m.inputMean, m.inputStd);
  } else {
    const raw = new Float64Array(table.rows * m.inputs);
    for (let r = 0; r < table.rows; r++) for (let k = 0; k < m.inputs; k++) raw[r * m.inputs + k] = table.values![r * table.cols + k];
    x = standardise(raw, table.rows, m.inputs, m.inputMean, m.inputStd);
  }
  const net = new Net(m.inputs, m.hidden, m.width, 0);
  net.w1.set(m.w1);
  net.b1.set(m.b1);
  net.w2.set(m.w2);
  net.b2.set(m.b2);
  const v = table.values!,
    h = new Float64Array(m.hidden),
    e = new Float64Array(m.width),
    out = new Float64Array(0);
  const lines: string[] = [];
  const all = new Float64Array(table.rows * m.width);
  const progress = rowReporter(opts.report, table.rows);
  for (let r = 0; r < table.rows; r++) {
    if ((r & 1023) === 0) progress(r);
    net.forward(x, r * m.inputs, h, e, out);
    all.set(e, r * m.width);
    lines.push(`[${Array.from(e, (z) => Number(z.toPrecision(7))).join(',')}]`);
  }
  progress(table.rows);
  const head = JSON.stringify({ rows: table.rows, width: m.width, inputs: m.inputs, task: m.task, format: 'embeddings' });
  await writeFile(outPath, `${head.slice(0, -1)},"embeddings":[\n${lines.join(',\n')}\n]}\n`);
  // The file is written: its lines go before the map is made, so collecting them does not slow the map.
  lines.length = 0;
  // The fit's target colours the map (by name, or the column after the inputs in SPEC's layout); without one, clusters.
  const target = enc ? (enc.targets[0] ? placeOf(enc.targets[0]) : null) : table.cols > m.inputs ? m.inputs : null;
  const inputs = enc ? enc.inputs.length : m.inputs;
  const keyInfo = target === null ? null : { name: columnNamesOf(table)[target], classes: table.kinds?.[target]?.levels ?? null };
  const colourSource = { names: columnNamesOf(table), kinds: table.kinds, target };
  return {
    rows: table.rows,
    width: m.width,
    projection: projectEmbeddings(all, table.rows, m.width, v, table.cols, inputs, target, keyInfo, colourSource),
  };
}
