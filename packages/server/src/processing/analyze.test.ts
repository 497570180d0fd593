import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, TEXT_EMBEDDING_MESSAGES, UPLOAD_CONTEXTS } from '@portal/core';
import { analyzeFile } from './index';

const LIMITS = { rows: 5_000, inputColumns: 3, maxParameters: 1_000_000_000 };
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'analysis-'));
  // Pickle, joblib and PyTorch fixtures come from Python's own pickler (standard library only).
  execFileSync('python3', [fileURLToPath(new URL('./fixtures/make_pickles.py', import.meta.url)), dir]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = (name: string, content: string | Uint8Array) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
const analyze = (name: string, content?: string | Uint8Array) =>
  analyzeFile(content === undefined ? join(dir, name) : file(name, content), name, LIMITS);

/** A .npy file as NumPy writes it: magic, version 1.0, a padded header dict, then the data. */
function npy(descr: string, shape: number[], dataBytes?: number): Uint8Array {
  const shapeText = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shapeText}, }`;
  header += ' '.repeat(64 - ((10 + header.length + 1) % 64)) + '\n';
  const size = dataBytes ?? shape.reduce((p, v) => p * v, 1) * Number(descr.slice(2));
  const out = new Uint8Array(10 + header.length + size);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, header.length & 0xff, header.length >> 8]);
  out.set(new TextEncoder().encode(header), 10);
  return out;
}

describe('.json texts', () => {
  it('reads a list of strings as texts: one row per text, one column, texts × 1 inputs', async () => {
    const found = await analyze('t.json', '\uFEFF [ "first text", "zweiter Text", "第三"]');
    expect(found).toMatchObject({ proc: 1, rows: 3, cols: 1, inputs: 3, error: null });
    // The preview shows the texts with their lengths, the byte-order mark notwithstanding.
    expect(found.preview?.kind).toBe('texts');
    expect(found.preview?.texts.map((t) => [t.text, t.length])).toEqual([
      ['first text', 10],
      ['zweiter Text', 12],
      ['第三', 2],
    ]);
  });

  it('counts texts against the plan rows', async () => {
    const texts = JSON.stringify(Array.from({ length: 5_001 }, (_, i) => `text ${i}`));
    expect(await analyze('many.json', texts)).toMatchObject({
      proc: 2,
      rows: 5_001,
      error: 'This file has 5,001 rows; your plan allows up to 5,000.',
    });
  });

  it('names the item that is not a text, an empty text and a text too long to embed', async () => {
    expect((await analyze('mixed.json', '["a", 2]')).error).toBe(
      'Item 2 is a number, not a text; a text upload is a list of strings, e.g. ["first text", "second text"].',
    );
    expect((await analyze('empty.json', '["a", "  "]')).error).toBe('Text 2 is empty; every text needs at least one character.');
    expect((await analyze('long.json', JSON.stringify(['x'.repeat(40_000)]))).error).toBe(
      'Text 1 has 40,000 characters; texts of up to 32,768 characters can be embedded: split it.',
    );
    expect((await analyze('broken.json', '["a", "b"')).error).toMatch(/^The file is not valid JSON/);
  });

  it('a table whose rows are texts says what the texts are for', async () => {
    expect((await analyze('rows.json', '[[1], "a"]')).error).toBe('Row 2 is not a list of values like the rows before it.');
    expect((await analyze('obj.json', '{"rows": ["a"]}')).error).toBe(TEXT_EMBEDDING_MESSAGES.textUpload);
  });
});

describe('.json tables', () => {
  it('counts rows, columns and inputs of an array of rows', async () => {
    expect(await analyze('a.json', '[[1, 2, 3], [4.5, -6e2, 0]]')).toMatchObject({ proc: 1, rows: 2, cols: 3, inputs: 6, error: null });
  });

  it('reads the object form with column names', async () => {
    const r = await analyze(
      'b.json',
      JSON.stringify({
        columns: ['x', 'y'],
        rows: [
          [1, 2],
          [3, 4],
          [5, 6],
        ],
      }),
    );
    expect(r).toMatchObject({ proc: 1, rows: 3, cols: 2, inputs: 6 });
  });

  it('names the ragged row', async () => {
    expect(await analyze('c.json', '[[1,2,3,4],[1,2,3,4],[1,2]]')).toMatchObject({
      proc: 2,
      rows: null,
      cols: null,
      inputs: null,
      error: 'Row 3 has 2 values; expected 4.',
    });
  });

  it('keeps text and missing values, and names the row with a value that is no cell', async () => {
    expect(await analyze('d.json', '[[1,2],[3,"x"]]')).toMatchObject({ proc: 1, rows: 2, cols: 2, error: null });
    expect(await analyze('e.json', '[[1,2],[null,4]]')).toMatchObject({ proc: 1, rows: 2, cols: 2, error: null });
    expect((await analyze('n.json', '[[1,2],[3,[4]]]')).error).toBe(
      'Row 2 has a nested list in column 2; each cell must be a number, a text, true/false or null.',
    );
  });

  it('refuses empty data and broken JSON with a sentence', async () => {
    expect((await analyze('f.json', '[]')).error).toBe('The file holds no rows of data.');
    expect((await analyze('g.json', '[[1,2],[3,4]')).error).toBe('The file ends too early: the JSON is incomplete.');
    expect((await analyze('h.json', '{"columns": ["a"], "rows": [[1, 2]]}')).error).toBe(
      '"columns" names 1 column but each row has 2 values.',
    );
    expect((await analyze('i.json', '{"data": 1}')).proc).toBe(2);
    expect((await analyze('j.json', '[{}, {}]')).error).toBe('The rows are empty objects: give each row its values by column name.');
    expect((await analyze('k.json', '{"a": [1, 2], "b": [3]}')).error).toBe('Column "b" has 1 value; column "a" has 2.');
  });

  it('applies the plan row limit, naming it', async () => {
    const rows = JSON.stringify(Array.from({ length: 6_000 }, (_, i) => [i, i]));
    expect(await analyze('big.json', rows)).toMatchObject({
      proc: 2,
      rows: 6_000,
      cols: 2,
      inputs: 12_000,
      error: 'This file has 6,000 rows; your plan allows up to 5,000.',
    });
  });
});

describe('.txt tables', () => {
  it('reads comma, tab and space separated numbers with a header', async () => {
    expect(await analyze('a.txt', 'x,y,z\n1,2,3\n4,5,6\n')).toMatchObject({ proc: 1, rows: 2, cols: 3, inputs: 6 });
    expect(await analyze('b.txt', '1\t2\n3\t4\n5\t6')).toMatchObject({ proc: 1, rows: 3, cols: 2 });
    expect(await analyze('c.txt', '  1.5  2e3 -3\n4 5 6\n')).toMatchObject({ proc: 1, rows: 2, cols: 3 });
    expect(await analyze('c2.txt', '# measured values\r\n1; 2\r\n\r\n3 ;\t4\r\nnan; -inf\r\n')).toMatchObject({
      proc: 1,
      rows: 3,
      cols: 2,
    });
  });

  it('names the line of a bad value or a short row', async () => {
    expect((await analyze('d.txt', '1,2\n3,abc\n')).error).toBe('Line 2 has "abc" in column 2; every value must be a number.');
    expect((await analyze('e.txt', 'a b c\n1 2 3\n4 5\n')).error).toBe('Line 3 has 2 values; expected 3.');
    expect((await analyze('f.txt', 'only,a,header\n')).error).toBe('The file holds no rows of data.');
  });
});

describe('.npy and .npz', () => {
  it('reads shape and dtype from the header', async () => {
    expect(await analyze('a.npy', npy('<f8', [100, 4]))).toMatchObject({ proc: 1, rows: 100, cols: 4, inputs: 400, error: null });
    expect(await analyze('b.npy', npy('<i4', [10]))).toMatchObject({ proc: 1, rows: 10, cols: 1, inputs: 10 });
    expect(await analyze('c.npy', npy('<f4', [2, 3, 4]))).toMatchObject({ rows: 2, cols: 12, inputs: 24 });
  });

  it('refuses truncated, object and foreign files', async () => {
    expect((await analyze('d.npy', npy('<f8', [100, 4], 100))).error).toBe(
      'The file is truncated: its header describes 3,200 bytes of data, but it holds 100.',
    );
    expect((await analyze('e.npy', npy('|O8', [3], 24))).error).toContain('Python objects');
    expect((await analyze('f.npy', 'not numpy at all')).error).toBe('The file is not a NumPy .npy file (its header is missing).');
  });

  it('reads every array of an archive, compressed or not', async () => {
    const arch = zipSync({ 'x.npy': npy('<f8', [50, 3]), 'y.npy': npy('<f8', [50]) }, { level: 6 });
    expect(await analyze('a.npz', arch)).toMatchObject({ proc: 1, rows: 50, cols: 4, inputs: 200, error: null });
    const mixed = zipSync({ 'a.npy': [npy('<f4', [5, 2]), { level: 0 }], 'b.npy': npy('<f4', [7]) });
    expect(await analyze('b.npz', mixed)).toMatchObject({ proc: 1, rows: null, cols: null, inputs: 17 });
  });

  it('reads archives as numpy.savez and savez_compressed write them (zip64 local headers)', async () => {
    expect(await analyze('savez.npz')).toMatchObject({ proc: 1, rows: 40, cols: 4, inputs: 160, error: null });
    expect(await analyze('savez_compressed.npz')).toMatchObject({ proc: 1, rows: 1_000, cols: 8, inputs: 8_000, error: null });
  });

  it('refuses broken archives', async () => {
    expect((await analyze('c.npz', 'PK\u0003\u0004 broken')).error).toBe(
      'The archive is incomplete or damaged (its zip directory is missing).',
    );
    expect((await analyze('d.npz', zipSync({ 'readme.txt': new Uint8Array(3) }))).error).toBe('The archive holds no .npy arrays.');
    expect((await analyze('e.npz', 'plain text')).error).toBe('The file is not a NumPy .npz archive (it is not a zip file).');
  });
});

describe('pickles, read without running them', () => {
  it('finds a NumPy array shape (protocol 5 and protocol 0)', async () => {
    expect(await analyze('array.pkl')).toMatchObject({ proc: 1, rows: 100, cols: 4, inputs: 400, error: null });
    expect(await analyze('array_p0.pickle')).toMatchObject({ proc: 1, rows: 7, cols: 3, inputs: 21 });
  });

  it('reads a plain list of rows as a table', async () => {
    expect(await analyze('table.pkl')).toMatchObject({ proc: 1, rows: 2, cols: 3, inputs: 6 });
    expect(await analyze('dataset.pkl')).toMatchObject({ proc: 1, rows: 30, cols: 5, inputs: 150, error: null });
  });

  it('counts the arrays of a pickled model and of a joblib file with inline array data', async () => {
    expect(await analyze('model.sav')).toMatchObject({ proc: 1, inputs: 3 });
    expect(await analyze('joblib.sav')).toMatchObject({ proc: 1, rows: null, cols: null, inputs: 22 });
  });

  it('never executes a malicious pickle and says why it cannot count it', async () => {
    const r = await analyze('evil.pkl');
    expect(r.proc).toBe(2);
    expect(r.error).toBe('This pickle holds no numeric arrays or tables whose size can be read without running its code.');
    expect(existsSync(join(dir, 'executed'))).toBe(false);
  });

  it('refuses object arrays, truncated pickles, compressed and non-pickle files', async () => {
    expect((await analyze('object_array.pkl')).error).toContain('cannot be known without running its code');
    expect((await analyze('truncated.pkl')).error).toBe('The pickle is truncated or damaged.');
    expect((await analyze('gz.pkl', new Uint8Array([0x1f, 0x8b, 8, 0, 0]))).error).toContain('gzip-compressed');
    expect((await analyze('text.pickle', 'hello')).error).toBe('The file is not a pickle, or it is damaged.');
  });
});

describe('.pt archives', () => {
  it('counts tensor elements from the storages', async () => {
    expect(await analyze('state.pt')).toMatchObject({ proc: 1, rows: null, cols: null, inputs: 15, error: null });
    expect(await analyze('single.pt')).toMatchObject({ proc: 1, rows: 10, cols: 5, inputs: 50, error: null });
  });

  it('refuses damaged, legacy and foreign files', async () => {
    expect((await analyze('missing.pt')).error).toBe('Tensor data 1 is missing from the archive.');
    expect((await analyze('legacy.pt')).error).toContain('legacy format');
    expect((await analyze('x.pt', zipSync({ 'a.txt': new Uint8Array(1) }))).error).toContain('no data.pkl');
    expect((await analyze('y.pt', 'text')).error).toBe('This is not a PyTorch .pt file (it is not a zip archive).');
  });
});

describe('.py models', () => {
  const model = `
import torch.nn as nn
HIDDEN = 64
class Net(nn.Module):
    def __init__(self, inputs=10):
        super().__init__()
        self.fc1 = nn.Linear(inputs, HIDDEN)
        self.fc2 = nn.Linear(HIDDEN, 1, bias=False)
`;
  it('counts parameters statically as the inputs', async () => {
    expect(await analyze('m.py', model)).toMatchObject({ proc: 1, rows: null, cols: null, inputs: 10 * 64 + 64 + 64, error: null });
  });

  it('states the 1 billion parameter limit', async () => {
    const r = await analyze('huge.py', 'import torch.nn as nn\nemb = nn.Embedding(2_000_000, 1024)\n');
    expect(r.proc).toBe(2);
    expect(r.error).toBe('This model has 2,048,000,000 parameters; shrink accepts models of at most 1 billion parameters.');
  });

  it('says which layer has a size it cannot read, and when there are no layers', async () => {
    expect((await analyze('dyn.py', 'import torch.nn as nn\ndef make(n):\n    return nn.Linear(n, compute())\n')).error).toMatch(
      /^nn\.Linear on line 3 has a size that cannot be read/,
    );
    expect((await analyze('none.py', 'print("hello")\n')).error).toMatch(/^No PyTorch layers/);
  });
});

describe('any file', () => {
  it('lists the allowed types for an unknown extension', async () => {
    expect((await analyze('a.csv', '1,2')).error).toBe(MESSAGES.invalidFileType(UPLOAD_CONTEXTS.uploads.extensions));
  });

  it('reports an empty or missing file without throwing', async () => {
    expect((await analyze('empty.json', '')).error).toBe('The file is empty.');
    expect((await analyzeFile(join(dir, 'nope.json'), 'nope.json', LIMITS)).error).toMatch(/could not be read/);
  });
});
