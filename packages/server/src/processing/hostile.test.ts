import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAN_LIMITS, SHRINK_MAX_PARAMETERS } from '@portal/core';
import { analyzeFile, shrinkReport } from './index';
import { hostileCorpus, HOSTILE_MAX_BYTES, type HostileFile } from '../../test/hostile';
import { readPickleFile } from './pickled';
import { readPyModel } from './pymodel';
import { isZip, MAX_INFLATED_BYTES, ZipArchive, ZipError } from './zip';

const INDIVIDUAL = {
  rows: PLAN_LIMITS.Individual.rows,
  inputColumns: PLAN_LIMITS.Individual.inputColumns,
  maxParameters: SHRINK_MAX_PARAMETERS,
};
const ENTERPRISE = {
  rows: PLAN_LIMITS.Enterprise.rows,
  inputColumns: PLAN_LIMITS.Enterprise.inputColumns,
  maxParameters: SHRINK_MAX_PARAMETERS,
};
/** Text that must never reach a user: engine, database or stack text. */
const ENGINE_TEXT = /invalid input syntax|bigint|Maximum call stack|RangeError|TypeError|undefined|NaN rows|\bat .+:\d+:\d+/;

let dir: string;
const corpus: HostileFile[] = hostileCorpus();
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hostile-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = (name: string, content: string | Uint8Array) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
const python = (code: string): Buffer => execFileSync('python3', ['-c', `import pickle, sys\n${code}`], { maxBuffer: 64 * 1024 * 1024 });

/** CPU time rather than wall time: two cores are shared with other work, and CPU time is what a file costs. */
async function measured<T>(f: () => Promise<T>): Promise<{ value: T; cpuMs: number; rssMb: number; buffersMb: number }> {
  const m0 = process.memoryUsage();
  const c0 = process.cpuUsage();
  const value = await f();
  const c = process.cpuUsage(c0);
  const m1 = process.memoryUsage();
  return { value, cpuMs: (c.user + c.system) / 1000, rssMb: (m1.rss - m0.rss) / 1e6, buffersMb: (m1.arrayBuffers - m0.arrayBuffers) / 1e6 };
}

describe('the hostile corpus', () => {
  it('has every kind of attack the issue names, each within the Individual upload limit', () => {
    expect(HOSTILE_MAX_BYTES).toBe(PLAN_LIMITS.Individual.maxFileSize);
    for (const f of corpus) expect(f.bytes.length, f.name).toBeLessThanOrEqual(HOSTILE_MAX_BYTES);
    const names = corpus.map((f) => f.name).join('\n');
    for (const kind of [
      /listing one compressed member many times/,
      /overlap|starts inside/,
      /declares 100 bytes and inflates/,
      /beyond its declared size/,
      /memo aliasing/,
      /nested/,
      /negative nn\.Parameter beside nn\.Linear\(30000, 30000\)/,
      /NaN/,
      /infinite/,
      /fractional/,
      /above 10\^12/,
      /expression/,
    ]) {
      expect(names).toMatch(kind);
    }
    expect(new Set(corpus.map((f) => f.fileName)).size).toBe(corpus.length);
  });

  it.each(corpus.map((f) => [f.name, f] as const))('%s: refused with its sentence in bounded time and memory', async (_, f) => {
    const path = file(f.fileName, f.bytes);
    const { value: r, cpuMs, rssMb, buffersMb } = await measured(() => analyzeFile(path, f.fileName, INDIVIDUAL));
    expect(r.proc).toBe(2);
    expect(r.error).toMatch(f.fault);
    expect(r.error).not.toMatch(ENGINE_TEXT);
    expect(cpuMs).toBeLessThan(2000);
    expect(rssMb).toBeLessThan(100);
    expect(buffersMb).toBeLessThan(100);
    if (f.fileName.endsWith('.py')) {
      const shrunk = await measured(() =>
        shrinkReport(path, join(dir, `${f.fileName}.report.json`)).then(
          () => null,
          (e: Error) => e,
        ),
      );
      expect(shrunk.value?.message).toMatch(f.fault);
      expect(shrunk.cpuMs).toBeLessThan(2000);
    }
  });
});

// ---- the rules, one by one ----
const npy = (rows: number, cols: number) => {
  let header = `{'descr': '<f8', 'fortran_order': False, 'shape': (${rows}, ${cols}), }`;
  header += ' '.repeat(64 - ((10 + header.length + 1) % 64)) + '\n';
  return Buffer.concat([
    Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, header.length & 0xff, header.length >> 8]),
    Buffer.from(header),
    Buffer.alloc(rows * cols * 8),
  ]);
};

describe('zip archives', () => {
  it('reads each entry once, and only as far as asked', () => {
    const zip = new ZipArchive(zipSync({ 'a.npy': npy(1000, 3) }, { level: 6 }));
    const e = zip.get('a.npy')!;
    const stream = zip.open(e);
    expect(stream.take(10)).toHaveLength(10);
    expect(stream.take(128)).toHaveLength(128);
    expect(() => zip.open(e)).toThrow(/opened twice/);
  });

  it('refuses an archive that would inflate past its total cap, however its members are split', () => {
    const members: Record<string, Uint8Array> = {};
    for (let i = 0; i < 40; i++) members[`m${i}`] = new Uint8Array(1 << 20);
    const zip = new ZipArchive(zipSync(members, { level: 1 }));
    expect(MAX_INFLATED_BYTES).toBe(32 * 1024 * 1024);
    expect(() => {
      for (const e of zip.entries) zip.read(e);
    }).toThrow(/unpacks to more than 32 MB in total/);
  });

  it('refuses a stored entry whose declared size differs from its stored bytes', () => {
    const b = Buffer.from(zipSync({ 'a.npy': [npy(2, 2), { level: 0 }] }));
    b.writeUInt32LE(10, b.lastIndexOf(Buffer.from([0x50, 0x4b, 1, 2])) + 24);
    expect(() => new ZipArchive(b)).toThrow(ZipError);
    expect(() => new ZipArchive(b)).toThrow(/stored uncompressed but declares 10 bytes/);
  });

  it('still reads archives as NumPy and PyTorch write them, up to the largest plan size', async () => {
    // 10 MB Enterprise uploads: one stored (uncompressed) array, and a deflated one that unpacks to 400 MB.
    const stored = zipSync({ 'x.npy': [npy(400_000, 3), { level: 0 }] });
    expect(stored.length).toBeLessThanOrEqual(PLAN_LIMITS.Enterprise.maxFileSize);
    expect(isZip(stored)).toBe(true);
    const a = await measured(() => analyzeFile(file('big.npz', stored), 'big.npz', ENTERPRISE));
    expect(a.value).toMatchObject({ proc: 1, rows: 400_000, cols: 3, inputs: 1_200_000, error: null });
    expect(a.cpuMs).toBeLessThan(2000);
    const zeros = zipSync({ 'x.npy': npy(2_000_000, 3), 'y.npy': npy(2_000_000, 1) }, { level: 1 });
    const b = await measured(() => analyzeFile(file('zeros.npz', zeros), 'zeros.npz', ENTERPRISE));
    expect(b.value).toMatchObject({
      proc: 2,
      rows: 2_000_000,
      cols: 4,
      inputs: 8_000_000,
      error: 'This file has 2,000,000 rows; your plan allows up to 1,000,000.',
    });
    expect(b.rssMb).toBeLessThan(100);
  });
});

describe('pickles', () => {
  it('measures rows that are one memoised list once (linear, not quadratic)', () => {
    // Python's pickler memoises the shared row: the file holds it once and refers to it n times.
    const small = python('sys.stdout.buffer.write(pickle.dumps([list(range(2000))] * 2000, protocol=4))');
    expect(readPickleFile(small, ENTERPRISE)).toEqual({ ok: true, rows: 2000, cols: 2000, inputs: 4_000_000 });
    const big = python('sys.stdout.buffer.write(pickle.dumps([list(range(100000))] * 100000, protocol=4))');
    const t = process.cpuUsage();
    expect(readPickleFile(big, ENTERPRISE)).toEqual({ ok: true, rows: 100_000, cols: 100_000, inputs: 10_000_000_000 });
    const c = process.cpuUsage(t);
    expect((c.user + c.system) / 1000).toBeLessThan(1000);
  });

  it('caps nesting at 1,000 levels', () => {
    const marks = (n: number) => Buffer.concat([Buffer.from([0x80, 4]), Buffer.alloc(n, '('), Buffer.alloc(n, '1'), Buffer.from('N.')]);
    expect(readPickleFile(marks(999), INDIVIDUAL)).toMatchObject({ ok: false, error: expect.stringMatching(/no numeric arrays/) });
    expect(readPickleFile(marks(1001), INDIVIDUAL)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/more than 1,000 levels deep/),
    });
  });

  it('builds at most as many values as the plan needs', () => {
    const lists = python('sys.stdout.buffer.write(pickle.dumps([[] for _ in range(150000)], protocol=4))');
    expect(readPickleFile(lists, INDIVIDUAL)).toMatchObject({ ok: false, error: expect.stringMatching(/builds more than 100,000 values/) });
    expect(readPickleFile(lists, ENTERPRISE)).toMatchObject({ ok: false, error: expect.stringMatching(/no numeric arrays/) });
  });

  it('reads a 10 MB list of rows, the largest plan size', () => {
    const rows = python('sys.stdout.buffer.write(pickle.dumps([[i * 0.5, i * 1.5, float(i)] for i in range(300000)], protocol=4))');
    expect(rows.length).toBeLessThanOrEqual(PLAN_LIMITS.Enterprise.maxFileSize);
    expect(readPickleFile(rows, ENTERPRISE)).toEqual({ ok: true, rows: 300_000, cols: 3, inputs: 900_000 });
  });
});

describe('.py model sizes', () => {
  const model = (body: string) =>
    `import torch\nimport torch.nn as nn\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n${body
      .split('\n')
      .map((l) => `        ${l}`)
      .join('\n')}\n`;
  const error = (body: string) => {
    const r = readPyModel(model(body));
    return r.ok ? `read as ${r.parameters}` : r.error;
  };

  it.each([
    ['nn.Linear(-1, 2)', 'in_features'],
    ['nn.Linear(2, -1)', 'out_features'],
    ['nn.Bilinear(2, 3, -1)', 'out_features'],
    ['nn.Conv1d(-1, 2, 3)', 'in_channels'],
    ['nn.Conv2d(3, -1, 3)', 'out_channels'],
    ['nn.Conv3d(3, 3, -1)', 'kernel_size'],
    ['nn.ConvTranspose2d(3, 3, (3, -1))', 'kernel_size'],
    ['nn.Embedding(-1, 8)', 'num_embeddings'],
    ['nn.EmbeddingBag(8, -1)', 'embedding_dim'],
    ['nn.LayerNorm(-1)', 'normalized_shape'],
    ['nn.RMSNorm((4, -1))', 'normalized_shape'],
    ['nn.GroupNorm(2, -1)', 'num_channels'],
    ['nn.BatchNorm2d(-1)', 'num_features'],
    ['nn.InstanceNorm1d(-1, affine=True)', 'num_features'],
    ['nn.LSTM(-1, 4)', 'input_size'],
    ['nn.GRU(4, -1)', 'hidden_size'],
    ['nn.RNN(4, 4, -1)', 'num_layers'],
    ['nn.LSTMCell(4, -1)', 'hidden_size'],
    ['nn.MultiheadAttention(-1, 1)', 'embed_dim'],
    ['nn.TransformerEncoderLayer(-1, 1)', 'd_model'],
    ['nn.TransformerDecoderLayer(8, 1, dim_feedforward=-1)', 'dim_feedforward'],
    ['nn.Transformer(d_model=-1)', 'd_model'],
    ['nn.Transformer(num_encoder_layers=-1)', 'num_encoder_layers'],
    ['nn.PReLU(-1)', 'num_parameters'],
    ['nn.Parameter(torch.zeros(-1))', 'size'],
    ['nn.Parameter(torch.ones((2, -1)))', 'size'],
    ['nn.Parameter(torch.full((-1, 3), 0.5))', 'size'],
    ['nn.Parameter(torch.eye(-1))', 'n'],
    ['nn.Parameter(torch.randn(2, -1))', 'size'],
  ])('%s is refused with its line and argument', (call, arg) => {
    expect(error(`self.x = ${call}`)).toMatch(
      new RegExp(
        `^nn\\.\\w+ on line 6 has a (size|count) of -1 \\(${arg}\\) in ".+"; every (size|count) must be a whole number from [01] to 1,000,000,000,000\\.$`,
      ),
    );
  });

  it.each([
    ['6.5', '6.5'],
    ["float('nan')", 'NaN'],
    ['float("inf")', 'Infinity'],
    ['math.inf', 'Infinity'],
    ['10**12 + 1', '1,000,000,000,001'],
    ['2 - 3', '-1'],
    ['0', '0'],
    ['7 / 2', '3.5'],
  ])('a size of %s is refused as %s', (expr, shown) => {
    expect(error(`self.fc = nn.Linear(4, ${expr})`)).toContain(`has a size of ${shown} (out_features)`);
    expect(error(`self.w = nn.Parameter(torch.zeros(${expr}))`)).toContain(`has a size of ${shown} (size)`);
  });

  it('evaluates sizes as Python does', () => {
    expect(
      readPyModel(model('self.a = nn.Linear(round(6.5), 1)\nself.b = nn.Linear(-7 % 3, 1)\nself.c = nn.Linear(int(7.9), 1)')),
    ).toMatchObject({ ok: true, parameters: 7 + 3 + 8 });
  });

  it("prices the issue's model at no less than its layers", () => {
    const linear = readPyModel(model('self.fc = nn.Linear(30000, 30000)'));
    expect(linear).toMatchObject({ ok: true, parameters: 900_030_000 });
    expect(error('self.fc = nn.Linear(30000, 30000)\nself.w = nn.Parameter(torch.zeros(-900029999))')).toBe(
      'nn.Parameter on line 7 has a size of -900,029,999 (size) in "nn.Parameter(torch.zeros(-900029999))"; every size must be a whole number from 1 to 1,000,000,000,000.',
    );
    expect(readPyModel(model('self.fc = nn.Linear(30000, 30000)\nself.w = nn.Parameter(torch.zeros(5, 2))'))).toMatchObject({
      ok: true,
      parameters: 900_030_010,
    });
  });

  it('counts exactly, and refuses a total beyond exact integers instead of rounding it', () => {
    expect(readPyModel(model('self.a = nn.Linear(10**6, 10**6)\nself.b = nn.Linear(10**6, 10**6)'))).toMatchObject({
      ok: true,
      parameters: 2_000_002_000_000,
    });
    expect(error('self.a = nn.Linear(10**12, 10**12)')).toMatch(/more than 9,007,199,254,740,991 parameters/);
    expect(error('self.a = nn.ModuleList([nn.Linear(10**6, 10**6) for _ in range(10**12)])')).toMatch(
      /more than 9,007,199,254,740,991 parameters/,
    );
  });

  it('takes layer counts from whole ranges and counts, zero included', () => {
    expect(readPyModel(model('self.a = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])'))).toMatchObject({ ok: true, parameters: 18 });
    expect(error('self.a = nn.ModuleList([nn.Linear(2, 2) for _ in range(0, 6, 0)])')).toMatch(/range on line 6 has a step of 0/);
    expect(error('self.r = nn.LSTM(4, 4, num_layers=2.5)')).toMatch(/has a count of 2\.5 \(num_layers\)/);
    expect(error('self.c = nn.Conv2d(10, 16, 3, groups=3)')).toMatch(/groups = 3, which does not divide in_channels \(10\)/);
    expect(error('self.e = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2), -2)')).toMatch(/has a count of -2 \(num_layers\)/);
    // A huge LSTM stack is a formula, not a loop of 10^12 iterations.
    expect(readPyModel(model('self.r = nn.LSTM(4, 4, num_layers=10**12)'))).toMatchObject({ ok: true, parameters: 160 * 10 ** 12 });
  });

  it('evaluates each constant once, refuses classes that build themselves, and caps expansion', () => {
    const doubling = [
      'import torch.nn as nn',
      'a0 = 1',
      ...Array.from({ length: 30 }, (_, i) => `a${i + 1} = a${i} + a${i}`),
      'm = nn.Linear(a30, 1)',
    ].join('\n');
    expect(readPyModel(doubling)).toMatchObject({ ok: true, parameters: 2 ** 30 + 1 });
    expect(
      readPyModel(
        'import torch.nn as nn\nclass A(nn.Module):\n    def __init__(self):\n        self.b = B()\nclass B(nn.Module):\n    def __init__(self):\n        self.fc = nn.Linear(2, 2)\n        self.a = A()\n',
      ),
    ).toMatchObject({ ok: false, error: expect.stringMatching(/builds itself/) });
  });

  it('never lets a reading failure reach the user as engine text', async () => {
    const path = file('odd.py', model(`self.fc = nn.Linear(${'['.repeat(5000)}1${']'.repeat(5000)}, 2)`));
    const r = await analyzeFile(path, 'odd.py', INDIVIDUAL);
    expect(r.proc).toBe(2);
    expect(r.error).not.toMatch(ENGINE_TEXT);
  });
});
