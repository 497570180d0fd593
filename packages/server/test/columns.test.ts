// Tables as people have them, against the real server and worker on each database: every JSON orientation and a CSV
// turned into the JSON table are analysed with their column types; a fit by column names learns the named text label
// (held-out accuracy in the run's status record); a wrong name or target is refused with a sentence naming it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIT_COLUMN_MESSAGES, isFinalState, parseTableText } from '@portal/core';
import { CALLS } from '@portal/core/contract/table';
import { call, dbKinds, signup, startServer, uploadFiles, waitFor, type TestServer } from './harness';

const kinds = await dbKinds();

/** A seeded random source, so the data is the same on every run. */
function rand(seed: number) {
  return () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** Measurements, a text label decided by two of them, and a last column of noise: only the label is predictable. */
function flowersCsv(n: number): string {
  const r = rand(5);
  const lines = ['f1,f2,f3,label,f4'];
  for (let i = 0; i < n; i++) {
    const f = [r(), r(), r()];
    const label = f[0] + f[1] > 1.2 ? 'virginica' : f[0] > 0.5 ? 'versicolor' : 'setosa';
    // A few empty cells in an input, as exported sheets have.
    lines.push([i % 97 === 0 ? '' : f[0].toFixed(4), f[1].toFixed(4), f[2].toFixed(4), label, (r() * 10).toFixed(3)].join(','));
  }
  return `${lines.join('\n')}\n`;
}

const names = ['x', 'kind', 'flag'];
const rows = [
  [1.5, 'a', true],
  [2, 'b', false],
  [null, 'a', true],
];
const SHAPES: Array<[string, unknown]> = [
  ['columns-rows', { columns: names, rows }],
  ['records', rows.map((r) => Object.fromEntries(names.map((n, i) => [n, r[i]])))],
  ['split', { columns: names, index: [0, 1, 2], data: rows }],
  ['columns', Object.fromEntries(names.map((n, i) => [n, rows.map((r) => r[i])]))],
];

describe.each(kinds)('tables and fits by column name on the %s database', (kind) => {
  let srv: TestServer;
  let A: Awaited<ReturnType<typeof signup>>;
  let project: string;
  let flowers: string;

  const uploadTable = async (name: string, body: unknown) =>
    uploadFiles(srv.url, A.token, project, [{ name, bytes: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)) }]);
  const preview = async (item: string) =>
    CALLS.uploadPreview.response.parse((await call(srv.url, 'uploadPreview', { token: A.token, query: { upload: item } })).body).preview;
  const fitWith = async (param: Record<string, unknown>) => {
    const p = { explainability: false, output_column_size: 4, task_target_size: 1, task: 'classification', ...param };
    const pile = await call(srv.url, 'pileCreate', { token: A.token, body: { bucket: project, variety: 'FitModel', param: p } });
    if (pile.status !== 200) return pile;
    return call(srv.url, 'runCreate', {
      token: A.token,
      body: { bucket: project, function: 'fit', rend: flowers, pile: pile.body.pile.stamp, name: 'by name' },
    });
  };

  beforeAll(async () => {
    srv = await startServer(kind);
    A = await signup(srv.url, 'columns');
    project = (await call(srv.url, 'bucketCreate', { token: A.token, body: { client: A.client, name: 'Flowers' } })).body.bucket.stamp;
    const table = parseTableText('flowers.csv', flowersCsv(1_000));
    const { upload } = await uploadTable('flowers.json', table);
    expect(upload.flight).toBe('Ready');
    flowers = upload.stamp;
  }, 180_000);
  afterAll(async () => {
    await srv?.close();
  });

  it.each(SHAPES)('a %s table is analysed with its column names and types', async (shape, doc) => {
    const { upload, items } = await uploadTable(`${shape}.json`, doc);
    expect(upload.flight).toBe('Ready');
    expect(upload.upload.list[0].meta).toMatchObject({ rows: 3, cols: 3, error: null });
    const p = await preview(items[0]);
    expect(p.shape).toBe(shape);
    expect(p.columns.map((c) => [c.name, c.type, c.missing])).toEqual([
      ['x', 'number', 1],
      ['kind', 'category', 0],
      ['flag', 'boolean', 0],
    ]);
    expect(p.rows[0]).toEqual([1.5, 'a', true]);
  });

  it('a CSV turned into the JSON table keeps its text label and counts its empty cells', async () => {
    const file = (await call(srv.url, 'rendList', { token: A.token, query: { bucket: project, active: 1 } })).body.rend.list.find(
      (r: { stamp: string }) => r.stamp === flowers,
    ).upload.list[0].stamp;
    const p = await preview(file);
    expect(p.columns.map((c) => [c.name, c.type])).toEqual([
      ['f1', 'number'],
      ['f2', 'number'],
      ['f3', 'number'],
      ['label', 'category'],
      ['f4', 'number'],
    ]);
    expect(p.columns[0].missing).toBe(11);
    expect(p.columns[3].values!.map((v) => v.value).sort()).toEqual(['setosa', 'versicolor', 'virginica']);
  });

  it('a fit by column names learns the named label (held-out accuracy in its status record), not the last column', async () => {
    const r = await fitWith({ input_column_size: 3, input_columns: ['f1', 'f2', 'f3'], target_columns: ['label'] });
    expect(r.status).toBe(200);
    const run = r.body.run.stamp;
    const record = await waitFor(async () => {
      const s = CALLS.runStatus.response.parse((await call(srv.url, 'runStatus', { token: A.token, query: { run } })).body).run.record;
      return isFinalState(s.state) && s;
    }, 120_000);
    expect(record.state).toBe('Finished');
    expect(record.metrics).toMatchObject({ name: 'accuracy', rows: 200 });
    expect(record.metrics!.value).toBeGreaterThan(0.9);
    const list = (await call(srv.url, 'runList', { token: A.token, query: { bucket: project, function: 'fit' } })).body.run.list;
    expect(list.find((x: { stamp: string }) => x.stamp === run).metrics).toEqual(record.metrics);
  }, 180_000);

  it('refuses a missing column, a text target for regression and a continuous target for classification, naming the column', async () => {
    const missing = await fitWith({ input_column_size: 3, input_columns: ['f1', 'f2', 'petal'], target_columns: ['label'] });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe('The upload has no column "petal"; its columns are "f1", "f2", "f3", "label", "f4".');
    const text = await fitWith({ task: 'regression', input_column_size: 3, input_columns: ['f1', 'f2', 'f3'], target_columns: ['label'] });
    expect(text.status).toBe(400);
    expect(text.body.error.message).toBe(FIT_COLUMN_MESSAGES.textForRegression('label'));
    const continuous = await fitWith({ input_column_size: 3, input_columns: ['f1', 'f2', 'f3'], target_columns: ['f4'] });
    expect(continuous.status).toBe(400);
    expect(continuous.body.error.message).toBe(FIT_COLUMN_MESSAGES.continuousForClassification('f4'));
    const sizes = await fitWith({ input_column_size: 2, input_columns: ['f1', 'f2', 'f3'], target_columns: ['label'] });
    expect(sizes.status).toBe(400);
    expect(sizes.body.error.message).toBe('input_columns names 3 columns but input_column_size is 2; they must agree.');
  });
});
