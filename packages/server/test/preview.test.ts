// Upload previews against the real server and worker: each upload kind answers what it holds, read back from analysis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREVIEW_NOTES, PREVIEW_ROWS } from '@portal/core';
import { CALLS } from '@portal/core/contract/table';
import { call, signup, startServer, uploadFiles, type TestServer } from './harness';
import { previewOf } from '../src/processing/preview';

const MODEL = `import torch.nn as nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(10, 20)
        self.fc2 = nn.Linear(20, 2)
`;

describe('upload preview on the embedded database', () => {
  let srv: TestServer;
  let A: Awaited<ReturnType<typeof signup>>;
  let project: string;

  const preview = async (name: string, bytes: Buffer) => {
    const { items } = await uploadFiles(srv.url, A.token, project, [{ name, bytes }]);
    const r = await call(srv.url, 'uploadPreview', { token: A.token, query: { upload: items[0] } });
    expect(r.status).toBe(200);
    return CALLS.uploadPreview.response.parse(r.body).preview;
  };

  beforeAll(async () => {
    srv = await startServer('embedded');
    A = await signup(srv.url, 'preview');
    project = (await call(srv.url, 'bucketCreate', { token: A.token, body: { client: A.client, name: 'Preview' } })).body.bucket.stamp;
  }, 120_000);
  afterAll(async () => {
    await srv?.close();
  });

  it('a JSON table shows its first 100 rows and each column over every row: type, range, mean and histogram', async () => {
    const rows = Array.from({ length: 250 }, (_, i) => [i, i / 4, i % 2]);
    const p = await preview('t.json', Buffer.from(JSON.stringify({ columns: ['id', 'quarter', 'odd'], rows })));
    expect(p.kind).toBe('table');
    expect(p.rows).toHaveLength(PREVIEW_ROWS);
    expect(p.rows[3]).toEqual([3, 0.75, 1]);
    expect(p.totalRows).toBe(250);
    expect(p.note).toContain('first 100 of 250 rows');
    expect(p.columns.map((c) => [c.name, c.type])).toEqual([
      ['id', 'integer'],
      ['quarter', 'number'],
      ['odd', 'integer'],
    ]);
    expect(p.columns[0]).toMatchObject({ min: 0, max: 249, mean: 124.5, missing: 0 });
    expect(p.columns[0].histogram).toHaveLength(10);
    expect(p.columns[0].histogram.reduce((a, b) => a + b, 0)).toBe(250);
  });

  it('a .txt table with a header names its columns and counts nan as missing', async () => {
    const p = await preview('t.txt', Buffer.from('a,b\n1,2\nnan,4\n3,6\n'));
    expect(p.kind).toBe('table');
    expect(p.columns.map((c) => c.name)).toEqual(['a', 'b']);
    expect(p.columns[0]).toMatchObject({ missing: 1, min: 1, max: 3, mean: 2 });
    expect(p.rows[1]).toEqual([null, 4]);
  });

  it('a .py model shows its layers and parameters', async () => {
    const p = await preview('m.py', Buffer.from(MODEL));
    expect(p.kind).toBe('model');
    expect(p.model?.parameters).toBe(10 * 20 + 20 + 20 * 2 + 2);
    expect(p.model?.layers.map((l) => l.type)).toEqual(['Linear', 'Linear']);
  });

  it('a file that failed analysis says so, and another account cannot read a preview', async () => {
    const { items } = await uploadFiles(srv.url, A.token, project, [{ name: 'bad.json', bytes: Buffer.from('[[1, 2], [3]') }]);
    const r = await call(srv.url, 'uploadPreview', { token: A.token, query: { upload: items[0] } });
    expect(r.body.preview).toMatchObject({ kind: 'none', note: PREVIEW_NOTES.failed });
    const B = await signup(srv.url, 'other');
    expect((await call(srv.url, 'uploadPreview', { token: B.token, query: { upload: items[0] } })).status).toBe(403);
    expect((await call(srv.url, 'uploadPreview', { token: A.token, query: { upload: 'nope' } })).status).toBe(404);
  });

  it('a text upload (an array of strings) shows its first texts with their lengths', () => {
    const p = previewOf(Buffer.from(JSON.stringify(['short', 'a longer text', 'é'])), '.json', null, null);
    expect(p.kind).toBe('texts');
    expect(p.texts).toEqual([
      { text: 'short', length: 5 },
      { text: 'a longer text', length: 13 },
      { text: 'é', length: 1 },
    ]);
    expect(p.columns[0]).toMatchObject({ type: 'text', min: 1, max: 13 });
  });
});
