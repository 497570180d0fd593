// Fit: trains the embedding network with Adam, deterministic for a seed, holding rows out for early stopping and
// for the reported score, and optionally measures each input's importance.
import {
  CLASSES_MAX,
  FIT_COLUMN_MESSAGES,
  fitColumnsProblem,
  targetProblem,
  type ColumnFacts,
  type FitParam,
  type RunMetrics,
} from '@portal/core';
import type { Table } from './table';
import { epochReporter, type Reporter } from './progress';
import { fmt, Net, plural, readTable, rng, shuffle, type EmbeddingModel } from './network';
import { columnNamesOf, encodingOf, indexOfNames } from './encoding';
import { prepare, type Layout, type Prepared } from './prepare';

export interface FitResult {
  model: EmbeddingModel;
  summary: string;
  importance?: number[];
  /** The held-out score, as the run's status record reports it. */
  metrics: RunMetrics;
  /** A sentence worth a look (a validation loss that rose while the training loss fell), or null. */
  note: string | null;
}

/** What the fit rules need of a column: its name, type and distinct values (counted up to one more than classes allow). */
function factsOf(t: Table, c: number, name: string): ColumnFacts {
  const kind = t.kinds?.[c];
  const v = t.values!;
  const seen = new Set<number>();
  let whole = true;
  for (let r = 0; r < t.rows && (seen.size <= CLASSES_MAX || whole); r++) {
    const x = v[r * t.cols + c];
    if (x !== x) continue;
    if (seen.size <= CLASSES_MAX) seen.add(x);
    if (whole && !Number.isInteger(x)) whole = false;
  }
  const type = kind && kind.type !== 'number' ? kind.type : whole ? 'integer' : 'number';
  return { name, type, distinct: seen.size };
}

/** The columns of the fit: by name when the request names them, else SPEC's layout (inputs, then targets). */
function layoutOf(t: Table, p: FitParam): Layout {
  const nIn = p.input_column_size,
    nT = p.task_target_size;
  if (p.input_columns || p.target_columns) {
    const names = columnNamesOf(t);
    // Sizes and repeats first (no columns given), then the names against the table, then the targets' values.
    const problem = fitColumnsProblem(p, [], false);
    if (problem) throw new Error(problem);
    const inputIndex = indexOfNames(t, p.input_columns!, FIT_COLUMN_MESSAGES.missing);
    const targets = indexOfNames(t, p.target_columns!, FIT_COLUMN_MESSAGES.missing);
    const facts = targets.map((c) => factsOf(t, c, names[c]));
    const typed = fitColumnsProblem(p, facts, false);
    if (typed) throw new Error(typed);
    return { task: p.task, inputIndex, targets, encoding: encodingOf(t, inputIndex) };
  }
  const need = nIn + nT;
  if (t.cols < need) {
    throw new Error(
      `Row 1 has ${plural(t.cols, 'value')}; this request needs ${fmt(need)} (${plural(nIn, 'input')} and ${plural(nT, 'target')}).`,
    );
  }
  const inputIndex = Array.from({ length: nIn }, (_, k) => k);
  const targets = Array.from({ length: nT }, (_, k) => nIn + k);
  if (t.kinds) {
    // Text columns in SPEC's layout: a text target is only for classification.
    const names = columnNamesOf(t);
    for (const c of targets) {
      const problem = t.kinds[c].type === 'number' || t.kinds[c].type === 'boolean' ? null : targetProblem(factsOf(t, c, names[c]), p.task);
      if (problem) throw new Error(problem);
    }
  }
  return { task: p.task, inputIndex, targets, encoding: encodingOf(t, inputIndex) };
}

function checkParam(p: FitParam): void {
  for (const [name, v] of [
    ['input column size', p.input_column_size],
    ['output column size', p.output_column_size],
    ['task target size', p.task_target_size],
  ] as const) {
    if (!Number.isInteger(v) || v < 1) throw new Error(`The request's ${name} must be a whole number of at least 1.`);
  }
}

/** Mean loss over rows (MSE on standardised targets, or cross-entropy). */
function loss(net: Net, d: Prepared, idx: Int32Array, cls: boolean, x: Float64Array = d.x): number {
  const h = new Float64Array(net.nHid),
    e = new Float64Array(net.nEmb),
    out = new Float64Array(net.nOut);
  let total = 0;
  for (const r of idx) {
    net.forward(x, r * d.nIn, h, e, out);
    if (cls) {
      let m = -Infinity;
      for (let k = 0; k < d.nOut; k++) if (out[k] > m) m = out[k];
      let s = 0;
      for (let k = 0; k < d.nOut; k++) s += Math.exp(out[k] - m);
      total += Math.log(s) + m - out[d.y[r]];
    } else {
      for (let k = 0; k < d.nOut; k++) {
        const diff = out[k] - d.y[r * d.nOut + k];
        total += diff * diff;
      }
    }
  }
  return total / Math.max(1, idx.length) / (cls ? 1 : d.nOut);
}

function train(
  d: Prepared,
  hidden: number,
  width: number,
  trainIdx: Int32Array,
  valIdx: Int32Array,
  seed: number,
  cls: boolean,
  report?: Reporter,
): { net: Net; epochs: number; note: string | null } {
  const rand = rng(seed);
  const net = new Net(d.nIn, hidden, width, d.nOut);
  net.init(rand);
  const params = net.arrays();
  const grads = params.map((a) => new Float64Array(a.length));
  const m1 = params.map((a) => new Float64Array(a.length));
  const m2 = params.map((a) => new Float64Array(a.length));
  const [gw1, gb1, gw2, gb2, gw3, gb3] = grads;
  const { nIn, nOut } = d;
  const h = new Float64Array(hidden),
    e = new Float64Array(width),
    out = new Float64Array(nOut);
  const dOut = new Float64Array(nOut),
    dE = new Float64Array(width),
    dH = new Float64Array(hidden);
  const batch = 32,
    lr = 0.005,
    beta1 = 0.9,
    beta2 = 0.999,
    eps = 1e-8;
  const nParams = params.reduce((s, a) => s + a.length, 0);
  // A fixed work budget (not a clock) keeps training deterministic and about a second long on any size.
  const maxEpochs = Math.max(5, Math.min(200, Math.floor(6e7 / Math.max(1, trainIdx.length * nParams))));
  const patience = 12;
  let best = Infinity,
    bestNet = net.clone(),
    bestEpoch = 0,
    since = 0,
    step = 0,
    epochs = 0;
  const order = Int32Array.from(trainIdx);
  const progress = epochReporter(report, maxEpochs);
  const trainLosses: number[] = [],
    valLosses: number[] = [];
  for (let epoch = 0; epoch < maxEpochs; epoch++) {
    epochs = epoch + 1;
    // The training loss of the epoch, summed from the forward passes training makes anyway (weights move within it).
    let trainLoss = 0;
    shuffle(order, rand);
    for (let b0 = 0; b0 < order.length; b0 += batch) {
      const b1 = Math.min(order.length, b0 + batch),
        bs = b1 - b0;
      for (const g of grads) g.fill(0);
      for (let bi = b0; bi < b1; bi++) {
        const r = order[bi],
          xo = r * nIn;
        net.forward(d.x, xo, h, e, out);
        if (cls) {
          let m = -Infinity;
          for (let k = 0; k < nOut; k++) if (out[k] > m) m = out[k];
          let s = 0;
          for (let k = 0; k < nOut; k++) {
            dOut[k] = Math.exp(out[k] - m);
            s += dOut[k];
          }
          trainLoss += Math.log(s) + m - out[d.y[r]];
          for (let k = 0; k < nOut; k++) dOut[k] = (dOut[k] / s - (k === d.y[r] ? 1 : 0)) / bs;
        } else {
          for (let k = 0; k < nOut; k++) {
            const diff = out[k] - d.y[r * nOut + k];
            trainLoss += diff * diff;
            dOut[k] = (2 * diff) / (bs * nOut);
          }
        }
        dE.fill(0);
        for (let j = 0; j < nOut; j++) {
          const g = dOut[j],
            o = j * width;
          gb3[j] += g;
          for (let k = 0; k < width; k++) {
            gw3[o + k] += g * e[k];
            dE[k] += g * net.w3[o + k];
          }
        }
        dH.fill(0);
        for (let j = 0; j < width; j++) {
          const g = dE[j],
            o = j * hidden;
          gb2[j] += g;
          for (let k = 0; k < hidden; k++) {
            gw2[o + k] += g * h[k];
            dH[k] += g * net.w2[o + k];
          }
        }
        for (let j = 0; j < hidden; j++) {
          if (h[j] <= 0) continue;
          const g = dH[j],
            o = j * nIn;
          gb1[j] += g;
          for (let k = 0; k < nIn; k++) gw1[o + k] += g * d.x[xo + k];
        }
      }
      step++;
      const c1 = 1 - beta1 ** step,
        c2 = 1 - beta2 ** step;
      for (let a = 0; a < params.length; a++) {
        const p = params[a],
          g = grads[a],
          ma = m1[a],
          va = m2[a];
        for (let i = 0; i < p.length; i++) {
          const gi = g[i];
          ma[i] = beta1 * ma[i] + (1 - beta1) * gi;
          va[i] = beta2 * va[i] + (1 - beta2) * gi * gi;
          p[i] -= (lr * (ma[i] / c1)) / (Math.sqrt(va[i] / c2) + eps);
        }
      }
    }
    const l = loss(net, d, valIdx, cls);
    trainLosses.push(trainLoss / Math.max(1, order.length) / (cls ? 1 : nOut));
    valLosses.push(l);
    const stop = !(l < best - 1e-7) && since + 1 >= patience;
    progress(epochs, trainLoss / Math.max(1, order.length) / (cls ? 1 : nOut), l, stop || epochs === maxEpochs);
    if (l < best - 1e-7) {
      best = l;
      bestNet = net.clone();
      bestEpoch = epochs;
      since = 0;
    } else if (++since >= patience) break;
  }
  // Overfitting in plain words: the held-out loss went up since the kept epoch while the training loss went down.
  let note: string | null = null;
  if (
    epochs < maxEpochs &&
    bestEpoch > 0 &&
    valLosses[epochs - 1] > valLosses[bestEpoch - 1] &&
    trainLosses[epochs - 1] < trainLosses[bestEpoch - 1]
  ) {
    note = `stopped early at epoch ${epochs}: validation loss rose`;
  }
  if (epochs < maxEpochs) {
    report?.({
      kind: 'log',
      message: `Stopped early after epoch ${epochs} of ${maxEpochs}: the validation loss had not improved for ${patience} epochs, so the model of epoch ${bestEpoch} was kept.`,
      data: { epoch: epochs, epochs: maxEpochs, bestEpoch },
    });
  }
  if (note)
    report?.({
      kind: 'log',
      message: `${note[0].toUpperCase()}${note.slice(1)} while the training loss fell; the model of epoch ${bestEpoch} was kept.`,
      data: { note, epoch: epochs, bestEpoch },
    });
  return { net: bestNet, epochs, note };
}

interface Scores {
  r2?: number;
  accuracy?: number;
}

function score(net: Net, d: Prepared, idx: Int32Array, cls: boolean): Scores {
  const h = new Float64Array(net.nHid),
    e = new Float64Array(net.nEmb),
    out = new Float64Array(net.nOut);
  if (cls) {
    let right = 0;
    for (const r of idx) {
      net.forward(d.x, r * d.nIn, h, e, out);
      let best = 0;
      for (let k = 1; k < d.nOut; k++) if (out[k] > out[best]) best = k;
      if (best === d.y[r]) right++;
    }
    return { accuracy: right / idx.length };
  }
  // R² per target column on the standardised scale (the same ratio as on the original scale), averaged.
  const res = new Float64Array(d.nOut),
    mean = new Float64Array(d.nOut),
    tot = new Float64Array(d.nOut);
  for (const r of idx) for (let k = 0; k < d.nOut; k++) mean[k] += d.y[r * d.nOut + k] / idx.length;
  for (const r of idx) {
    net.forward(d.x, r * d.nIn, h, e, out);
    for (let k = 0; k < d.nOut; k++) {
      const y = d.y[r * d.nOut + k];
      res[k] += (out[k] - y) ** 2;
      tot[k] += (y - mean[k]) ** 2;
    }
  }
  let r2 = 0;
  for (let k = 0; k < d.nOut; k++) r2 += tot[k] > 0 ? 1 - res[k] / tot[k] : res[k] < 1e-9 ? 1 : 0;
  return { r2: r2 / d.nOut };
}

/** Permutation importance on the held-out rows: how much the loss grows when one input is shuffled. */
function importance(net: Net, d: Prepared, idx: Int32Array, cls: boolean, seed: number): number[] {
  const base = loss(net, d, idx, cls);
  const rand = rng(seed ^ 0x5bd1e995);
  const x = Float64Array.from(d.x);
  const raw: number[] = [];
  for (let k = 0; k < d.nIn; k++) {
    const perm = Int32Array.from(idx);
    shuffle(perm, rand);
    for (let i = 0; i < idx.length; i++) x[idx[i] * d.nIn + k] = d.x[perm[i] * d.nIn + k];
    raw.push(Math.max(0, loss(net, d, idx, cls, x) - base));
    for (const r of idx) x[r * d.nIn + k] = d.x[r * d.nIn + k];
  }
  const sum = raw.reduce((a, b) => a + b, 0);
  return raw.map((v) => (sum > 0 ? Number((v / sum).toFixed(6)) : 0));
}

export async function fitModel(dataPath: string, param: FitParam, opts: { seed?: number; report?: Reporter } = {}): Promise<FitResult> {
  checkParam(param);
  const table = await readTable(dataPath);
  const layout = layoutOf(table, param);
  const nIn = param.input_column_size,
    nT = param.task_target_size,
    need = nIn + nT;
  // Rows without a target value cannot teach: they are left out of training and of the score.
  const usable: number[] = [];
  for (let r = 0; r < table.rows; r++)
    if (layout.targets.every((c) => table.values![r * table.cols + c] === table.values![r * table.cols + c])) usable.push(r);
  if (usable.length < 5) {
    const rows = usable.length < table.rows ? `${plural(usable.length, 'row')} with a target value` : plural(table.rows, 'row');
    throw new Error(`The upload has ${rows}; training needs at least 5.`);
  }
  const seed = opts.seed ?? 1;
  const rand = rng(seed);
  const all = Int32Array.from(usable);
  shuffle(all, rand);
  // Three parts: 20 % held out for the reported metric and importance, and of the rest 10 % to decide when
  // to stop, so the reported score comes from rows that influenced neither the weights nor the stopping.
  const nTest = Math.max(1, Math.round(usable.length * 0.2));
  const nStop = Math.max(1, Math.round((usable.length - nTest) * 0.1));
  const testIdx = all.slice(0, nTest).sort();
  const stopIdx = all.slice(nTest, nTest + nStop).sort();
  const trainIdx = all.slice(nTest + nStop).sort();
  const cls = param.task === 'classification';
  const d = prepare(table, layout, trainIdx);
  const width = param.output_column_size;
  const hidden = Math.max(16, Math.min(64, 2 * (d.nIn + width)));
  const { net, epochs, note } = train(d, hidden, width, trainIdx, stopIdx, seed, cls, opts.report);
  const s = score(net, d, testIdx, cls);
  const imp = param.explainability ? importance(net, d, testIdx, cls, seed) : undefined;
  const round = (a: Float64Array) => Array.from(a, (v) => Number(v.toPrecision(9)));
  // A model by name (or of a table with text) keeps how it reads its columns; SPEC's numeric layout needs none.
  const named = !!param.input_columns || !!table.kinds;
  const names = columnNamesOf(table);
  const model: EmbeddingModel = {
    format: 'portal-embedding-mlp',
    version: 1,
    task: param.task,
    inputs: d.nIn,
    hidden,
    width,
    targets: nT,
    classes: d.classes,
    inputMean: d.inputMean,
    inputStd: d.inputStd,
    targetMean: d.targetMean,
    targetStd: d.targetStd,
    w1: round(net.w1),
    b1: round(net.b1),
    w2: round(net.w2),
    b2: round(net.b2),
    w3: round(net.w3),
    b3: round(net.b3),
    metrics: { trainRows: trainIdx.length, stopRows: stopIdx.length, heldOutRows: testIdx.length, epochs, ...s },
    ...(imp ? { importance: imp } : {}),
    ...(named
      ? {
          encoding: {
            inputs: layout.encoding,
            targets: layout.targets.map((c) => ({ name: names[c], index: c })),
            classNames: d.classNames,
          },
        }
      : {}),
  };
  const metric = cls ? `accuracy ${(s.accuracy! * 100).toFixed(1)}% over ${plural(d.nOut, 'class', 'classes')}` : `R² ${s.r2!.toFixed(2)}`;
  const used = new Set([...layout.inputIndex, ...layout.targets]).size;
  const ignored =
    table.cols > used
      ? named && param.input_columns
        ? ` ${plural(table.cols - used, 'other column')} ${table.cols - used === 1 ? 'was' : 'were'} not used.`
        : ` Columns after the first ${fmt(need)} were ignored.`
      : '';
  const skipped = usable.length < table.rows ? ` ${plural(table.rows - usable.length, 'row')} without a target value were left out.` : '';
  const summary = `Trained on ${plural(trainIdx.length, 'row')} (${fmt(stopIdx.length)} more to stop early); ${metric} on ${plural(testIdx.length, 'held-out row')}.${ignored}${skipped}`;
  opts.report?.({ kind: 'log', message: `Held-out score: ${metric} on ${plural(testIdx.length, 'held-out row')}.`, data: { ...s } });
  const metrics: RunMetrics = cls
    ? { name: 'accuracy', value: Number(s.accuracy!.toFixed(6)), rows: testIdx.length }
    : { name: 'r2', value: Number(s.r2!.toFixed(6)), rows: testIdx.length };
  return { model, summary, metrics, note, ...(imp ? { importance: imp } : {}) };
}
