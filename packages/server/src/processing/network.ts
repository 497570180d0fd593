// The embedding network both training and generating use (inputs → hidden → embedding → head, on Float64Arrays),
// the stored model's shape, a seeded random source, and reading an upload's table. README.md beside this file says
// why it is hand-written.
import { readFile } from 'node:fs/promises';
import type { FitParam } from '@portal/core';
import { scanJsonTable, type Table } from './table';
import type { InputEncoding } from './encoding';

/** The stored model: plain JSON, everything generate needs. */
export interface EmbeddingModel {
  format: 'portal-embedding-mlp';
  version: 1;
  task: FitParam['task'];
  inputs: number;
  hidden: number;
  width: number;
  targets: number;
  /** Classes of a single classification target column (their original values), else null. */
  classes: number[] | null;
  inputMean: number[];
  inputStd: number[];
  targetMean: number[] | null;
  targetStd: number[] | null;
  /** Row-major weights: w1 is hidden × inputs, w2 width × hidden, w3 heads × width. */
  w1: number[];
  b1: number[];
  w2: number[];
  b2: number[];
  w3: number[];
  b3: number[];
  metrics: { trainRows: number; stopRows: number; heldOutRows: number; epochs: number; r2?: number; accuracy?: number };
  importance?: number[];
  /** A model that reads its columns by name (a fit by column names, or on a table with text): how. */
  encoding?: {
    inputs: InputEncoding[];
    targets: Array<{ name: string; index: number }>;
    /** A text target's class names, in the order of `classes`. */
    classNames: string[] | null;
  };
}

export const fmt = (n: number) => n.toLocaleString('en-US');
export const plural = (n: number, one: string, many = `${one}s`) => `${fmt(n)} ${n === 1 ? one : many}`;

/** mulberry32: small, fast, and the same sequence on every machine for a seed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffle(idx: Int32Array, rand: () => number): void {
  for (let i = idx.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    const t = idx[i];
    idx[i] = idx[j];
    idx[j] = t;
  }
}

export async function readTable(dataPath: string): Promise<Table> {
  let buf: Buffer;
  try {
    buf = await readFile(dataPath);
  } catch {
    throw new Error('The upload could not be read from storage; please upload it again.');
  }
  const r = scanJsonTable(buf, true);
  if (!r.ok) throw new Error(r.error);
  return r.table;
}

/** The network's parameters, flat, with the layer sizes that index them. */
export class Net {
  w1: Float64Array;
  b1: Float64Array;
  w2: Float64Array;
  b2: Float64Array;
  w3: Float64Array;
  b3: Float64Array;
  constructor(
    readonly nIn: number,
    readonly nHid: number,
    readonly nEmb: number,
    readonly nOut: number,
  ) {
    this.w1 = new Float64Array(nHid * nIn);
    this.b1 = new Float64Array(nHid);
    this.w2 = new Float64Array(nEmb * nHid);
    this.b2 = new Float64Array(nEmb);
    this.w3 = new Float64Array(nOut * nEmb);
    this.b3 = new Float64Array(nOut);
  }
  arrays(): Float64Array[] {
    return [this.w1, this.b1, this.w2, this.b2, this.w3, this.b3];
  }
  init(rand: () => number): void {
    const fill = (w: Float64Array, fanIn: number, fanOut: number, relu: boolean) => {
      const a = relu ? Math.sqrt(6 / fanIn) : Math.sqrt(6 / (fanIn + fanOut));
      for (let i = 0; i < w.length; i++) w[i] = (rand() * 2 - 1) * a;
    };
    fill(this.w1, this.nIn, this.nHid, true);
    fill(this.w2, this.nHid, this.nEmb, false);
    fill(this.w3, this.nEmb, this.nOut, false);
  }
  clone(): Net {
    const n = new Net(this.nIn, this.nHid, this.nEmb, this.nOut);
    n.arrays().forEach((a, i) => a.set(this.arrays()[i]));
    return n;
  }
  /** Forward pass of one row; fills h (post-ReLU), e and out. */
  forward(x: Float64Array, xo: number, h: Float64Array, e: Float64Array, out: Float64Array): void {
    const { nIn, nHid, nEmb, nOut, w1, b1, w2, b2, w3, b3 } = this;
    for (let j = 0; j < nHid; j++) {
      let s = b1[j];
      const o = j * nIn;
      for (let k = 0; k < nIn; k++) s += w1[o + k] * x[xo + k];
      h[j] = s > 0 ? s : 0;
    }
    for (let j = 0; j < nEmb; j++) {
      let s = b2[j];
      const o = j * nHid;
      for (let k = 0; k < nHid; k++) s += w2[o + k] * h[k];
      e[j] = s;
    }
    for (let j = 0; j < nOut; j++) {
      let s = b3[j];
      const o = j * nEmb;
      for (let k = 0; k < nEmb; k++) s += w3[o + k] * e[k];
      out[j] = s;
    }
  }
}
