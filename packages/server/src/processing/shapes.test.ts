// Tables as people have them: every JSON orientation reads as the same typed table, and a fit by column names learns
// the named target (a text label) from the named inputs.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIT_COLUMN_MESSAGES, type FitParam } from '@portal/core';
import { analyzeFile, fitModel, generateEmbeddings } from './index';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'shapes-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const limits = { rows: 1_000_000, inputColumns: 3, maxParameters: 1e9 };
function write(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}
const analyze = (name: string, content: unknown) => analyzeFile(write(name, content), name, limits);

const names = ['size', 'colour', 'ok', 'label'];
const rows = [
  [1.5, 'red', true, 'setosa'],
  [2, 'blue', false, 'versicolor'],
  [null, 'red', true, 'setosa'],
  [4.25, '', null, 'virginica'],
];

describe('JSON tables in the common orientations', () => {
  const shapes: Array<[string, unknown]> = [
    ['columns-rows', { columns: names, rows }],
    ['records', rows.map((r) => Object.fromEntries(names.map((n, i) => [n, r[i]])))],
    ['split', { columns: names, index: [0, 1, 2, 3], data: rows }],
    ['columns', Object.fromEntries(names.map((n, i) => [n, rows.map((r) => r[i])]))],
    ['columns', Object.fromEntries(names.map((n, i) => [n, Object.fromEntries(rows.map((r, k) => [String(k), r[i]]))]))],
  ];
  for (const [shape, doc] of shapes) {
    it(`reads ${shape} with its names, types and missing values`, async () => {
      const a = await analyze(`${shape}.json`, doc);
      expect(a).toMatchObject({ proc: 1, rows: 4, cols: 4, inputs: 16, error: null });
      const p = a.preview!;
      expect(p.shape).toBe(shape);
      expect(p.columns.map((c) => [c.name, c.type, c.missing])).toEqual([
        ['size', 'number', 1],
        ['colour', 'category', 1],
        ['ok', 'boolean', 1],
        ['label', 'category', 0],
      ]);
      expect(p.rows[0]).toEqual([1.5, 'red', true, 'setosa']);
      expect(p.rows[3]).toEqual([4.25, null, null, 'virginica']);
      expect(p.columns[3].values).toEqual([
        { value: 'setosa', count: 2 },
        { value: 'versicolor', count: 1 },
        { value: 'virginica', count: 1 },
      ]);
    });
  }

  it('reads a bare matrix, naming its columns as the preview does', async () => {
    const a = await analyze('matrix.json', [
      [1, 'a'],
      [2, 'b'],
    ]);
    expect(a.preview!.shape).toBe('matrix');
    expect(a.preview!.columns.map((c) => [c.name, c.type])).toEqual([
      ['column 1', 'integer'],
      ['column 2', 'category'],
    ]);
  });

  it("reads Python's NaN as a missing value", async () => {
    const a = await analyze('nan.json', '{"columns": ["a", "b"], "rows": [[1, NaN], [2, 3], [NaN, 4]]}');
    expect(a).toMatchObject({ proc: 1, rows: 3, cols: 2 });
    expect(a.preview!.columns.map((c) => c.missing)).toEqual([1, 1]);
    expect(a.preview!.rows[0]).toEqual([1, null]);
  });

  it('refuses what is not a table with a sentence, and bounds a list of objects with ever new keys', async () => {
    expect((await analyze('scalar.json', '{"a": 1, "b": "x"}')).error).toMatch(/^The file is a JSON object without a table/);
    const sparse = Array.from({ length: 20_000 }, (_, i) => ({ [`k${i}`]: i }));
    const t0 = performance.now();
    expect((await analyze('sparse.json', sparse)).error).toMatch(/^The table has 10,001 columns; at most 10,000 can be read\.$/);
    expect(performance.now() - t0).toBeLessThan(3_000);
  });
});

/** A seeded generator so the dataset is the same on every run. */
function lcg(seed: number) {
  let s = seed;
  return () => {
    s = (s * 16807) % 2147483647;
    return s / 2147483647;
  };
}

/** Four noise measurements, a text label decided by two of them, and a last column of noise. */
function flowers(n: number) {
  const r = lcg(11);
  return Array.from({ length: n }, () => {
    const f = [r(), r(), r(), r()];
    const label = f[0] + f[1] > 1.2 ? 'virginica' : f[0] > 0.5 ? 'versicolor' : 'setosa';
    return { f1: f[0], f2: f[1], f3: f[2], label, f4: r() * 10, colour: r() > 0.5 ? 'red' : 'blue' };
  });
}

const fit = (over: Partial<FitParam>): FitParam => ({
  explainability: false,
  input_column_size: 3,
  output_column_size: 4,
  task_target_size: 1,
  task: 'classification',
  ...over,
});

describe('a fit by column names', () => {
  it('learns the named text label, not the last column, and reports its held-out accuracy', async () => {
    const path = write('flowers.json', flowers(1_500));
    const p = fit({ input_columns: ['f1', 'f2', 'colour'], target_columns: ['label'] });
    const r = await fitModel(path, p, { seed: 1 });
    expect(r.metrics.name).toBe('accuracy');
    expect(r.metrics.value).toBeGreaterThan(0.9);
    expect(r.metrics.rows).toBe(300);
    expect(r.model.encoding!.classNames).toEqual(['setosa', 'versicolor', 'virginica']);
    expect(r.model.encoding!.targets).toEqual([{ name: 'label', index: 3 }]);
    // colour is one-hot: f1, f2 and two inputs for its two classes.
    expect(r.model.inputs).toBe(4);
    const out = join(dir, 'emb.json');
    const g = await generateEmbeddings(r.model, path, out);
    expect(g.projection.keyName).toBe('label');
    expect(g.projection.classes).toEqual(['setosa', 'versicolor', 'virginica']);
    // The map can be coloured by any column, with class names for a text one.
    const colour = g.projection.colours!.find((c) => c.name === 'colour')!;
    expect(colour).toMatchObject({ type: 'category', classes: ['blue', 'red'] });
    expect(colour.key).toHaveLength(1_500);
    expect(g.projection.colours!.map((c) => c.name)).toEqual(['f1', 'f2', 'f3', 'label', 'f4', 'colour']);
  });

  it('refuses a missing column, a text target for regression and a continuous one for classification, naming the column', async () => {
    const path = write('flowers-small.json', flowers(50));
    await expect(fitModel(path, fit({ input_columns: ['f1', 'f2', 'petal'], target_columns: ['label'] }))).rejects.toThrow(
      'The upload has no column "petal"; its columns are "f1", "f2", "f3", "label", "f4", "colour".',
    );
    await expect(fitModel(path, fit({ task: 'regression', input_columns: ['f1', 'f2', 'f3'], target_columns: ['label'] }))).rejects.toThrow(
      FIT_COLUMN_MESSAGES.textForRegression('label'),
    );
    await expect(fitModel(path, fit({ input_columns: ['f1', 'f2', 'f3'], target_columns: ['f4'] }))).rejects.toThrow(
      FIT_COLUMN_MESSAGES.continuousForClassification('f4'),
    );
  });
});
