// Generate: applies a trained model (or a general model's fixed projection) to an upload's rows and writes the
// embeddings file.
import { writeFile } from 'node:fs/promises';
import type { Table } from './table';
import { rowReporter, type Reporter } from './progress';
import { Net, plural, readTable, rng, type EmbeddingModel } from './network';

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
  for (let r = 0; r < rows; r++) for (let k = 0; k < cols; k++) mean[k] += v[r * cols + k] / rows;
  for (let r = 0; r < rows; r++) for (let k = 0; k < cols; k++) std[k] += (v[r * cols + k] - mean[k]) ** 2 / rows;
  for (let k = 0; k < cols; k++) std[k] = std[k] > 1e-12 ? Math.sqrt(std[k]) : 1;
  const rand = rng(seedOf(m.id));
  const scale = Math.sqrt(3 / cols);
  const w = Float64Array.from({ length: width * cols }, () => (rand() * 2 - 1) * scale);
  const lines: string[] = [];
  const progress = rowReporter(report, rows);
  const e = new Float64Array(width);
  for (let r = 0; r < rows; r++) {
    if ((r & 1023) === 0) progress(r);
    e.fill(0);
    for (let k = 0; k < cols; k++) {
      const x = (v[r * cols + k] - mean[k]) / std[k];
      for (let j = 0; j < width; j++) e[j] += w[j * cols + k] * x;
    }
    lines.push(`[${Array.from(e, (z) => Number(Math.tanh(z).toPrecision(7))).join(',')}]`);
  }
  progress(rows);
  const task = m.id.includes('classification') ? 'classification' : 'regression';
  const head = JSON.stringify({ rows, width, inputs: cols, task, model: m.id, format: 'embeddings' });
  await writeFile(outPath, `${head.slice(0, -1)},"embeddings":[\n${lines.join(',\n')}\n]}\n`);
  return { rows, width };
}

export async function generateEmbeddings(
  model: unknown,
  dataPath: string,
  outPath: string,
  opts: { report?: Reporter } = {},
): Promise<{ rows: number; width: number }> {
  const general = model as GeneralModel | null;
  if (general && general.format === 'portal-general-projection' && typeof general.id === 'string')
    return generateGeneral(general, await readTable(dataPath), outPath, opts.report);
  const m = asModel(model);
  const table = await readTable(dataPath);
  if (table.cols < m.inputs) {
    throw new Error(`Row 1 has ${plural(table.cols, 'value')}; this model needs ${plural(m.inputs, 'input')} per row.`);
  }
  const net = new Net(m.inputs, m.hidden, m.width, 0);
  net.w1.set(m.w1);
  net.b1.set(m.b1);
  net.w2.set(m.w2);
  net.b2.set(m.b2);
  const v = table.values!,
    x = new Float64Array(m.inputs),
    h = new Float64Array(m.hidden),
    e = new Float64Array(m.width),
    out = new Float64Array(0);
  const lines: string[] = [];
  const progress = rowReporter(opts.report, table.rows);
  for (let r = 0; r < table.rows; r++) {
    if ((r & 1023) === 0) progress(r);
    for (let k = 0; k < m.inputs; k++) x[k] = (v[r * table.cols + k] - m.inputMean[k]) / m.inputStd[k];
    net.forward(x, 0, h, e, out);
    lines.push(`[${Array.from(e, (z) => Number(z.toPrecision(7))).join(',')}]`);
  }
  progress(table.rows);
  const head = JSON.stringify({ rows: table.rows, width: m.width, inputs: m.inputs, task: m.task, format: 'embeddings' });
  await writeFile(outPath, `${head.slice(0, -1)},"embeddings":[\n${lines.join(',\n')}\n]}\n`);
  return { rows: table.rows, width: m.width };
}
