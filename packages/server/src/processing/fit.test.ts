import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FitParam } from '@portal/core';
import { fitModel, generateEmbeddings } from './index';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'fit-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A seeded generator so the dataset is the same on every run. */
function lcg(seed: number) {
  let s = seed;
  return () => {
    s = (s * 16807) % 2147483647;
    return s / 2147483647;
  };
}

function write(name: string, rows: number[][]): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(rows));
  return path;
}

const param = (over: Partial<FitParam> = {}): FitParam => ({
  explainability: false,
  input_column_size: 3,
  output_column_size: 5,
  task_target_size: 1,
  task: 'regression',
  ...over,
});

describe('fit', () => {
  it('learns a linear target: held-out R² above 0.9, quickly, the same for a seed', async () => {
    const r = lcg(42);
    const rows = Array.from({ length: 5_000 }, () => {
      const x = [r() * 10, r() * 4 - 2, r()];
      return [...x, 2 * x[0] - 3 * x[1] + 0.5 * x[2] + 1 + (r() - 0.5) * 0.2];
    });
    const path = write('linear.json', rows);
    const t0 = performance.now();
    const a = await fitModel(path, param(), { seed: 7 });
    const ms = performance.now() - t0;
    const model = a.model as { metrics: { r2: number; heldOutRows: number } };
    expect(model.metrics.r2).toBeGreaterThan(0.9);
    expect(model.metrics.heldOutRows).toBe(1_000);
    expect(a.summary).toMatch(/^Trained on 3,600 rows \(400 more to stop early\); R² (0\.9\d|1\.00) on 1,000 held-out rows\.$/);
    // bench/worker holds the 2-second target in a quiet process; test files run in parallel, so allow twice that.
    expect(ms).toBeLessThan(4_000);
    const b = await fitModel(path, param(), { seed: 7 });
    expect(JSON.stringify(b.model)).toBe(JSON.stringify(a.model));
    // The model must survive storage as JSON.
    expect(JSON.parse(JSON.stringify(a.model))).toEqual(a.model);
  });

  it('explains which inputs matter', async () => {
    const r = lcg(3);
    const rows = Array.from({ length: 1_000 }, () => {
      const x = [r(), r(), r()];
      return [...x, 5 * x[0] + 0.01 * x[2]];
    });
    const fit = await fitModel(write('explain.json', rows), param({ explainability: true }), { seed: 1 });
    expect(fit.importance).toHaveLength(3);
    expect(fit.importance![0]).toBeGreaterThan(0.9);
    expect(fit.importance![1]).toBeLessThan(0.05);
  });

  it('classifies with the distinct values of one target column as classes', async () => {
    const r = lcg(9);
    const rows = Array.from({ length: 2_000 }, () => {
      const x = [r(), r(), r()];
      return [...x, x[0] + x[1] > 1 ? 7 : 3];
    });
    const fit = await fitModel(write('classes.json', rows), param({ task: 'classification' }), { seed: 2 });
    const model = fit.model as { classes: number[]; metrics: { accuracy: number } };
    expect(model.classes).toEqual([3, 7]);
    expect(model.metrics.accuracy).toBeGreaterThan(0.9);
    expect(fit.summary).toMatch(/; accuracy \d+\.\d% over 2 classes on 400 held-out rows\.$/);
  });

  it('says how many values a row needs when rows are too short', async () => {
    await expect(
      fitModel(
        write('short.json', [
          [1, 2],
          [3, 4],
          [5, 6],
          [7, 8],
          [9, 10],
        ]),
        param(),
      ),
    ).rejects.toThrow('Row 1 has 2 values; this request needs 4 (3 inputs and 1 target).');
    await expect(
      fitModel(
        write('bad.json', [
          [1, 2, 3, 4],
          [1, 2],
        ]),
        param(),
      ),
    ).rejects.toThrow('Row 2 has 2 values; expected 4.');
    await expect(fitModel(write('few.json', [[1, 2, 3, 4]]), param())).rejects.toThrow('The upload has 1 row; training needs at least 5.');
  });
});

describe('generate', () => {
  it('writes one embedding of output_column_size numbers per row, ignoring extra columns', async () => {
    const r = lcg(5);
    const rows = Array.from({ length: 300 }, () => {
      const x = [r(), r(), r()];
      return [...x, x[0] - x[1]];
    });
    const path = write('gen.json', rows);
    const fit = await fitModel(path, param({ output_column_size: 4 }), { seed: 3 });
    const out = join(dir, 'out.json');
    expect(await generateEmbeddings(JSON.parse(JSON.stringify(fit.model)), path, out)).toMatchObject({ rows: 300, width: 4 });
    const result = JSON.parse(readFileSync(out, 'utf8')) as { embeddings: number[][]; rows: number; width: number };
    expect(result.rows).toBe(300);
    expect(result.width).toBe(4);
    expect(result.embeddings).toHaveLength(300);
    for (const e of result.embeddings) {
      expect(e).toHaveLength(4);
      expect(e.every(Number.isFinite)).toBe(true);
    }
    // Different inputs give different embeddings.
    expect(result.embeddings[0]).not.toEqual(result.embeddings[1]);
  });

  it('refuses rows with fewer values than the model has inputs, and a damaged model', async () => {
    const r = lcg(8);
    const rows = Array.from({ length: 50 }, () => [r(), r(), r(), r()]);
    const fit = await fitModel(write('g2.json', rows), param(), { seed: 1 });
    await expect(generateEmbeddings(fit.model, write('g3.json', [[1, 2]]), join(dir, 'o.json'))).rejects.toThrow(
      'Row 1 has 2 values; this model needs 3 inputs per row.',
    );
    await expect(generateEmbeddings({ nope: 1 }, write('g4.json', [[1, 2, 3]]), join(dir, 'o.json'))).rejects.toThrow(/damaged/);
  });
});

describe('general models', () => {
  const general = (id: string) => ({ format: 'portal-general-projection', id });
  const run = async (id: string, path: string, out: string) => {
    const r = await generateEmbeddings(general(id), path, join(dir, out));
    return { ...r, file: JSON.parse(readFileSync(join(dir, out), 'utf8')) as { width: number; model: string; embeddings: number[][] } };
  };

  it('embeds every column with a projection seeded by the model id: min(columns, 5) values in [-1, 1], deterministic', async () => {
    const r = lcg(7);
    const wide = write(
      'general-wide.json',
      Array.from({ length: 30 }, () => Array.from({ length: 9 }, () => r() * 100)),
    );
    const a = await run('general-tabular-regression', wide, 'g1.json');
    expect(a).toMatchObject({ rows: 30, width: 5 });
    expect(a.file).toMatchObject({ width: 5, model: 'general-tabular-regression' });
    expect(a.file.embeddings.every((e) => e.length === 5 && e.every((v) => v >= -1 && v <= 1))).toBe(true);
    expect((await run('general-tabular-regression', wide, 'g2.json')).file.embeddings).toEqual(a.file.embeddings);
    expect((await run('general-tabular-classification', wide, 'g3.json')).file.embeddings).not.toEqual(a.file.embeddings);
  });

  it('a constant column adds nothing; two columns give two values', async () => {
    const path = write('general-const.json', [
      [1, 5],
      [2, 5],
      [3, 5],
    ]);
    const { width, file } = await run('general-tabular-regression', path, 'g4.json');
    expect(width).toBe(2);
    // The middle row is the mean of the varying column and the constant column standardises to 0.
    expect(file.embeddings[1]).toEqual([0, 0]);
  });
});
