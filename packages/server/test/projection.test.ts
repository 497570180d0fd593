// The embedding map against the real server and worker: a generate request's vectors projected to 2D, two
// well-separated classes ending up apart (by centroid distance), and the PCA itself on known data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isFinalState, PROJECTION_NOTES, type Projection } from '@portal/core';
import { CALLS } from '@portal/core/contract/table';
import { call, signup, startServer, uploadFiles, waitFor, type TestServer } from './harness';
import { projectEmbeddings } from '../src/processing/projection';

/** Per key value: its points' centroid and their mean distance from it. */
function groups(p: Projection) {
  const by = new Map<number, Array<[number, number]>>();
  p.key.forEach((k, i) => by.set(k, [...(by.get(k) ?? []), [p.x[i], p.y[i]]]));
  return [...by.entries()].map(([key, pts]) => {
    const cx = pts.reduce((a, [x]) => a + x, 0) / pts.length;
    const cy = pts.reduce((a, [, y]) => a + y, 0) / pts.length;
    const spread = pts.reduce((a, [x, y]) => a + Math.hypot(x - cx, y - cy), 0) / pts.length;
    return { key, cx, cy, spread, n: pts.length };
  });
}

/** A seeded random source, so the data is the same on every run. */
function rand(seed: number) {
  return () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** Two classes far apart in input space: 3 inputs around -3 or +3 and the class as the target. */
function twoClasses(rows: number): number[][] {
  const r = rand(42);
  return Array.from({ length: rows }, (_, i) => {
    const c = i % 2;
    return [...Array.from({ length: 3 }, () => (c ? 3 : -3) + (r() - 0.5)), c];
  });
}

describe('the PCA of the map', () => {
  it('puts the largest spread on the first axis and says how much of the variance each axis explains', () => {
    const r = rand(7);
    const rows = 2000;
    const emb = new Float64Array(rows * 4);
    for (let i = 0; i < rows; i++) {
      emb[i * 4] = (r() - 0.5) * 100;
      emb[i * 4 + 1] = (r() - 0.5) * 10;
      emb[i * 4 + 2] = (r() - 0.5) * 1;
      emb[i * 4 + 3] = emb[i * 4] * 0.01;
    }
    const p = projectEmbeddings(emb, rows, 4, emb, 4, 4, null);
    expect(p.variance[0]).toBeGreaterThan(0.95);
    expect(p.variance[0] + p.variance[1]).toBeLessThanOrEqual(1.0001);
    expect(p.x).toHaveLength(rows);
    expect(p.keyKind).toBe('cluster');
    expect(new Set(p.key).size).toBeGreaterThan(1);
  });
});

describe('the embedding map on the embedded database', () => {
  let srv: TestServer;
  let A: Awaited<ReturnType<typeof signup>>;
  let generate: string;

  beforeAll(async () => {
    srv = await startServer('embedded');
    A = await signup(srv.url, 'map');
    const project = (await call(srv.url, 'bucketCreate', { token: A.token, body: { client: A.client, name: 'Map' } })).body.bucket.stamp;
    const upload = (
      await uploadFiles(srv.url, A.token, project, [{ name: 'two.json', bytes: Buffer.from(JSON.stringify(twoClasses(400))) }])
    ).upload.stamp;
    const param = { explainability: false, input_column_size: 3, output_column_size: 4, task_target_size: 1, task: 'classification' };
    const pile = (await call(srv.url, 'pileCreate', { token: A.token, body: { bucket: project, variety: 'FitModel', param } })).body.pile
      .stamp;
    const fit = (
      await call(srv.url, 'runCreate', { token: A.token, body: { bucket: project, function: 'fit', rend: upload, pile, name: 'fit' } })
    ).body.run.stamp;
    generate = (
      await call(srv.url, 'runCreate', { token: A.token, body: { bucket: project, function: 'generate', rend: upload, fit, name: 'map' } })
    ).body.run.stamp;
    expect((await call(srv.url, 'runProjection', { token: A.token, query: { run: generate } })).body.note).toBe(PROJECTION_NOTES.waiting);
    await waitFor(async () => {
      const r = (await call(srv.url, 'runStatus', { token: A.token, query: { run: generate } })).body.run.record;
      return isFinalState(r.state) && r;
    }, 120_000);
  }, 180_000);
  afterAll(async () => {
    await srv?.close();
  });

  it('two well-separated classes end up apart: their centroids are further apart than their points spread', async () => {
    const r = await call(srv.url, 'runProjection', { token: A.token, query: { run: generate } });
    expect(r.status).toBe(200);
    const p = CALLS.runProjection.response.parse(r.body).projection!;
    expect(p.keyKind).toBe('target');
    expect(p.total).toBe(400);
    expect(p.row.slice(0, 3)).toEqual([0, 1, 2]);
    expect(p.inputs[1]).toHaveLength(3);
    const [a, b] = groups(p);
    expect(new Set([a.key, b.key])).toEqual(new Set([0, 1]));
    expect(Math.hypot(a.cx - b.cx, a.cy - b.cy)).toBeGreaterThan(3 * Math.max(a.spread, b.spread));
    expect(p.variance[0]).toBeGreaterThan(0.5);
  });

  it('another account cannot read the map', async () => {
    const B = await signup(srv.url, 'mapother');
    expect((await call(srv.url, 'runProjection', { token: B.token, query: { run: generate } })).status).toBe(403);
  });
});
