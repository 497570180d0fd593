// A corpus of hostile uploads, each within the Individual plan's 1 MB limit: the files an attacker would send
// to make the analysis slow, hungry or wrong, each with the sentence the analysis must refuse it with.
// The processing tests, the worker tests and bench/worker all run it, so the API stays as it is.
import { deflateRawSync, constants } from 'node:zlib';

export interface HostileFile {
  /** What the file tries, in a few words. */
  name: string;
  /** The upload name; its extension picks the reader. */
  fileName: string;
  bytes: Buffer;
  /** Matches the sentence the analysis (or, for .py, the shrink report) must fail the file with. */
  fault: RegExp;
}

/** Every hostile file fits the smallest plan's upload limit. */
export const HOSTILE_MAX_BYTES = 1_048_576;

// ---- zip archives written by hand, so the directory can say what a real zip tool never would ----
interface Member {
  name: string;
  /** The bytes as stored (already deflated when method is 8). */
  stored: Uint8Array;
  method: 0 | 8;
  /** The uncompressed size the directory declares. */
  size: number;
}

const u16 = (v: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(v);
  return b;
};
const u32 = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(v >>> 0);
  return b;
};

/** What a member's local header and its directory entry both say: method, time, date, CRC, sizes, name and extra lengths. */
const entryFields = (m: Member, name: Buffer) => [
  u16(m.method),
  u16(0),
  u16(0),
  u32(0),
  u32(m.stored.length),
  u32(m.size),
  u16(name.length),
  u16(0),
];

function localHeader(m: Member): Buffer {
  const name = Buffer.from(m.name);
  return Buffer.concat([u32(0x04034b50), u16(20), u16(0), ...entryFields(m, name), name]);
}

function centralHeader(m: Member, offset: number): Buffer {
  const name = Buffer.from(m.name);
  // Made by and needed: version 2.0; then flags; after the shared fields: comment length, disk, attributes, offset.
  return Buffer.concat([
    u32(0x02014b50),
    u16(20),
    u16(20),
    u16(0),
    ...entryFields(m, name),
    u16(0),
    u16(0),
    u16(0),
    u32(0),
    u32(offset),
    name,
  ]);
}

function endOfDirectory(count: number, dirSize: number, dirOffset: number): Buffer {
  return Buffer.concat([u32(0x06054b50), u16(0), u16(0), u16(count), u16(count), u32(dirSize), u32(dirOffset), u16(0)]);
}

/**
 * An archive of `members` laid out one after another; `directory` lists (member index, offset override) pairs,
 * so an entry can be listed several times or point into another entry's bytes.
 */
type Listing = Array<{ member: number; offset?: number; name?: string }>;
function zip(members: Member[], directory?: Listing): Buffer {
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let at = 0;
  for (const m of members) {
    offsets.push(at);
    const h = localHeader(m);
    parts.push(h, Buffer.from(m.stored));
    at += h.length + m.stored.length;
  }
  const list: Listing = directory ?? members.map((_, i) => ({ member: i }));
  const dir = Buffer.concat(
    list.map((d) => centralHeader({ ...members[d.member], name: d.name ?? members[d.member].name }, d.offset ?? offsets[d.member])),
  );
  return Buffer.concat([...parts, dir, endOfDirectory(list.length & 0xffff, dir.length, at)]);
}

const deflate = (b: Uint8Array) => deflateRawSync(b, { level: 9 });
const stored = (name: string, data: Uint8Array): Member => ({ name, stored: data, method: 0, size: data.length });
const deflated = (name: string, data: Uint8Array): Member => ({ name, stored: deflate(data), method: 8, size: data.length });

/**
 * A deflate stream that inflates to `megabytes` MB of zeros without ever holding them: one flushed,
 * byte-aligned block of 1 MB of zeros repeated (each starts with a literal, so it is valid after any other),
 * then an empty final block.
 */
function zeroBomb(megabytes: number): Buffer {
  const block = deflateRawSync(Buffer.alloc(1 << 20), { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  return Buffer.concat([...Array.from({ length: megabytes }, () => block), Buffer.from([0x03, 0x00])]);
}

// ---- NumPy .npy ----
function npyHeader(descr: string, shape: string, pad = 0, version = 1): Buffer {
  let header = `{'descr': ${descr}, 'fortran_order': False, 'shape': ${shape}, }`;
  const pre = version === 1 ? 10 : 12;
  header += ' '.repeat(pad + 64 - ((pre + header.length + 1) % 64)) + '\n';
  const len = version === 1 ? u16(header.length) : u32(header.length);
  return Buffer.concat([Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, version, 0]), len, Buffer.from(header, 'latin1')]);
}
const npy = (rows: number, cols: number) => Buffer.concat([npyHeader("'<f8'", `(${rows}, ${cols})`), Buffer.alloc(rows * cols * 8)]);

// ---- pickles, opcode by opcode ----
const P = {
  proto: Buffer.from([0x80, 4]),
  stop: Buffer.from('.'),
  mark: Buffer.from('('),
  emptyList: Buffer.from(']'),
  appends: Buffer.from('e'),
  append: Buffer.from('a'),
  int1: (v: number) => Buffer.from([0x4b, v & 0xff]),
  put: (i: number) => Buffer.concat([Buffer.from('r'), u32(i)]),
  get: (i: number) => Buffer.concat([Buffer.from('j'), u32(i)]),
  global: (mod: string, name: string) => Buffer.from(`c${mod}\n${name}\n`),
  str: (s: string) => {
    const b = Buffer.from(s);
    return Buffer.concat([Buffer.from([0x8c, b.length]), b]);
  },
  emptyDict: Buffer.from('}'),
  setitems: Buffer.from('u'),
  tuple: Buffer.from('t'),
  emptyTuple: Buffer.from(')'),
  newobj: Buffer.from([0x81]),
  build: Buffer.from('b'),
  reduce: Buffer.from('R'),
  binpersid: Buffer.from('Q'),
};

/** An outer list of `n` memo references to one inner list of `n` small numbers: n rows that are the same row. */
function memoAliasedRows(n: number): Buffer {
  const inner: Buffer[] = [P.emptyList, P.put(0)];
  for (let i = 0; i < n; i += 1000) {
    inner.push(P.mark);
    for (let k = i; k < Math.min(n, i + 1000); k++) inner.push(P.int1(k));
    inner.push(P.appends);
  }
  const outer: Buffer[] = [P.emptyList, P.put(1)];
  for (let i = 0; i < n; i += 1000) {
    outer.push(P.mark);
    for (let k = i; k < Math.min(n, i + 1000); k++) outer.push(P.get(0));
    outer.push(P.appends);
  }
  // The inner list is built first and popped, so the outer list is the top value.
  return Buffer.concat([P.proto, ...inner, Buffer.from('0'), ...outer, P.stop]);
}

/** `n` torch tensors whose size tuple is one memoised tuple of `dims` numbers. */
function memoAliasedShapes(n: number, dims: number): Buffer {
  const parts: Buffer[] = [P.proto, P.mark];
  for (let i = 0; i < dims; i++) parts.push(P.int1(1));
  parts.push(
    P.tuple,
    P.put(0),
    Buffer.from('0'),
    P.global('torch._utils', '_rebuild_tensor_v2'),
    P.put(1),
    Buffer.from('0'),
    P.emptyList,
    P.mark,
  );
  for (let i = 0; i < n; i++) parts.push(P.get(1), P.mark, Buffer.from('N'), P.int1(0), P.get(0), P.tuple, P.reduce);
  parts.push(P.appends, P.stop);
  return Buffer.concat(parts);
}

/** joblib array wrappers that all share one state dict of `keys` entries. */
function memoAliasedJoblibState(n: number, keys: number): Buffer {
  const parts: Buffer[] = [P.proto, P.emptyDict, P.put(0), P.mark];
  for (let i = 0; i < keys; i++) parts.push(P.int1(i & 0xff), P.int1(i & 0xff));
  parts.push(
    P.setitems,
    Buffer.from('0'),
    P.global('joblib.numpy_pickle', 'NumpyArrayWrapper'),
    P.put(1),
    Buffer.from('0'),
    P.emptyList,
    P.mark,
  );
  for (let i = 0; i < n; i++) parts.push(P.get(1), P.emptyTuple, P.newobj, P.get(0), P.build);
  parts.push(P.appends, P.stop);
  return Buffer.concat(parts);
}

/** A list nested `depth` levels deep, built with EMPTY_LIST and APPEND (no marks). */
function deepPickleList(depth: number): Buffer {
  return Buffer.concat([P.proto, Buffer.alloc(depth, ']'), Buffer.alloc(depth - 1, 'a'), P.stop]);
}

/** A .pt archive whose data.pkl refers to `storages` storages; the archive holds `entries` unrelated members. */
function manyStoragesPt(storages: number, entries: number): Buffer {
  const parts: Buffer[] = [P.proto, P.emptyList, P.mark];
  for (let i = 0; i < storages; i++) {
    parts.push(
      P.mark,
      P.str('storage'),
      P.global('torch', 'FloatStorage'),
      P.str(String(i)),
      P.str('cpu'),
      P.int1(1),
      P.tuple,
      P.binpersid,
    );
  }
  parts.push(P.appends, P.stop);
  const members = [deflated('archive/data.pkl', Buffer.concat(parts))];
  for (let i = 0; i < entries; i++) members.push(stored(`archive/x/${i}`, new Uint8Array(0)));
  return zip(members);
}

/** A .pt whose one storage declares `numel` elements (a negative count would lower the inputs that price a fit). */
function storagePt(numel: number): Buffer {
  const int4 = Buffer.alloc(5);
  int4.write('J');
  int4.writeInt32LE(numel, 1);
  const pkl = Buffer.concat([
    P.proto,
    P.mark,
    P.str('storage'),
    P.global('torch', 'FloatStorage'),
    P.str('0'),
    P.str('cpu'),
    int4,
    P.tuple,
    P.binpersid,
    P.stop,
  ]);
  return zip([deflated('archive/data.pkl', pkl), stored('archive/data/0', new Uint8Array(16))]);
}

// ---- Python models ----
const model = (body: string, imports = '') =>
  Buffer.from(
    `${imports}import torch\nimport torch.nn as nn\n\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n${body}\n`,
  );
const SIZE_RULE = /on line \d+ has a size of .+; every size must be a whole number from 1 to 1,000,000,000,000/;

/** A model's class body (indented as the class needs), the imports above it, and the sentence it must be refused with. */
type ModelRow = [name: string, fileName: string, body: string, fault: RegExp, imports?: string];
const MODELS: ModelRow[] = [
  [
    "the issue's model: a negative nn.Parameter beside nn.Linear(30000, 30000)",
    'negative-parameter.py',
    '        self.fc = nn.Linear(30000, 30000)\n        self.w = nn.Parameter(torch.zeros(-900029999))',
    /nn\.Parameter on line 9 has a size of -900,029,999/,
  ],
  ['nn.Linear with a negative size', 'negative.py', '        self.fc = nn.Linear(-5, 10)', SIZE_RULE],
  ['nn.Linear with a fractional size', 'fraction.py', '        self.fc = nn.Linear(6.5, 10)', /has a size of 6\.5/],
  ['nn.Parameter with a fractional size', 'fraction-parameter.py', '        self.w = nn.Parameter(torch.zeros(6.5))', /has a size of 6\.5/],
  ['nn.Conv2d with a NaN size', 'nan.py', "        self.c = nn.Conv2d(3, float('nan'), 3)", /has a size of NaN/],
  ['nn.Embedding with an infinite size', 'inf.py', '        self.e = nn.Embedding(math.inf, 8)', /has a size of Infinity/, 'import math\n'],
  ['nn.Linear with a size above 10^12', 'huge.py', '        self.fc = nn.Linear(10**13, 1)', /has a size of 10,000,000,000,000/],
  [
    'nn.Conv1d with an expression that comes out negative',
    'expression.py',
    '        self.c = nn.Conv1d(4 - 2 * 8, 4, 3)',
    /has a size of -12/,
  ],
  ['nn.LSTM with a zero hidden size', 'zero.py', '        self.r = nn.LSTM(8, 0)', SIZE_RULE],
  [
    'nn.Parameter of torch.ones with a negative second dimension',
    'negative-ones.py',
    '        self.fc = nn.Linear(100, 100)\n        self.w = nn.Parameter(torch.ones(1000, -3))',
    /has a size of -3/,
  ],
  ['nn.Conv2d with a negative kernel size', 'kernel.py', '        self.c = nn.Conv2d(3, 16, -3)', /has a size of -3/],
  [
    'comprehension over a fractional range',
    'range.py',
    '        self.l = nn.ModuleList([nn.Linear(4, 4) for _ in range(2.5)])',
    /range on line \d+ .*whole number/,
  ],
  [
    'a size nested in 50,000 parentheses',
    'parens.py',
    `        self.fc = nn.Linear(${'('.repeat(50_000)}4${')'.repeat(50_000)}, 2)`,
    /cannot be read without running the code/,
  ],
  [
    'one logical line of 60,000 physical lines',
    'long-line.py',
    `        self.s = nn.Sequential(\n${'nn.ReLU(),\n'.repeat(60_000)}            nn.Linear(2, -1))`,
    /on line 60,009 has a size of -1/,
  ],
  ['100,000 unclosed calls', 'unclosed.py', `        self.s = (${'nn.Linear(2, '.repeat(70_000)}`, /No PyTorch layers/],
];

/** Constants that double at each step: evaluated naively, reading them costs 2^steps lookups. */
function doublingConstants(steps: number): Buffer {
  const lines = ['import torch.nn as nn', 'a0 = 1'];
  for (let i = 1; i <= steps; i++) lines.push(`a${i} = a${i - 1} + a${i - 1}`);
  lines.push(`model = nn.Linear(a${steps}, 2)`);
  return Buffer.from(lines.join('\n') + '\n');
}

/** Classes that each build the next one twice: 2^depth layers if expanded naively. */
function wideClassTree(depth: number): Buffer {
  const lines = ['import torch.nn as nn'];
  for (let i = 0; i < depth; i++) {
    lines.push(
      `class C${i}(nn.Module):`,
      '    def __init__(self):',
      '        super().__init__()',
      `        self.a = C${i + 1}()`,
      `        self.b = C${i + 1}()`,
    );
  }
  lines.push(`class C${depth}(nn.Module):`, '    def __init__(self):', '        super().__init__()', '        self.fc = nn.Linear(2, 2)');
  lines.push('model = C0()');
  return Buffer.from(lines.join('\n') + '\n');
}

export function hostileCorpus(): HostileFile[] {
  const files: HostileFile[] = [];
  const add = (name: string, fileName: string, bytes: Buffer, fault: RegExp) => files.push({ name, fileName, bytes, fault });

  // Zip directories that lie.
  {
    const x = deflated('x.npy', Buffer.concat([npyHeader("'<f8'", '(2, 2)'), Buffer.alloc(32)]));
    add(
      'npz listing one compressed member many times',
      'repeated.npz',
      zip(
        [x],
        Array.from({ length: 4000 }, () => ({ member: 0 })),
      ),
      /lists the entry x\.npy more than once/,
    );
    add(
      "npz listing one member's bytes under many names",
      'aliased.npz',
      zip(
        [x],
        Array.from({ length: 4000 }, (_, i) => ({ member: 0, name: `a${i}.npy` })),
      ),
      /entries .+ overlap/,
    );
    // a.npy's stored bytes hold a whole second entry, b.npy, which the directory lists as well.
    const b = stored('b.npy', npy(4, 2));
    const a = stored('a.npy', Buffer.concat([localHeader(b), b.stored]));
    const ab = zip([a, b], [{ member: 0 }, { member: 1, offset: 30 + a.name.length }]);
    add('npz whose second entry starts inside the first', 'overlap.npz', ab, /entries .+ overlap/);
  }
  add(
    'pt whose data.pkl declares 100 bytes and inflates to about 0.9 GB',
    'bomb.pt',
    zip([{ name: 'archive/data.pkl', stored: zeroBomb(900), method: 8, size: 100 }]),
    /data\.pkl .*unpacks to more than its declared 100 bytes/,
  );
  add(
    'npz member that inflates beyond its declared size',
    'beyond.npz',
    zip([{ ...deflated('x.npy', npy(2000, 4)), size: 144 }]),
    /x\.npy .*unpacks to more than its declared 144 bytes/,
  );
  {
    // Thousands of members whose .npy headers are each padded to 60 KB of spaces: tiny compressed, large inflated.
    const header = npyHeader("'<f8'", '(1,)', 60_000, 2);
    const member = Buffer.concat([header, Buffer.alloc(8)]);
    const members = Array.from({ length: 3000 }, (_, i) => deflated(`m${i}.npy`, member));
    add('npz whose members inflate to more than the total cap', 'inflate-total.npz', zip(members), /unpacks to more than \d+ MB in total/);
  }
  {
    const good = zip([deflated('x.npy', npy(100, 3))]);
    add('npz cut short', 'truncated.npz', good.subarray(0, good.length >> 1), /incomplete or damaged/);
  }
  add('pt archive with a storage per entry, all missing', 'storages.pt', manyStoragesPt(10_000, 5_000), /Tensor data \d+ is missing/);
  add(
    'pt whose storage declares -1,000,000,000 elements',
    'negative-storage.pt',
    storagePt(-1_000_000_000),
    /declares -1,000,000,000 elements, which is not a possible size/,
  );
  add('pt in the legacy format', 'legacy.pt', Buffer.concat([P.proto, P.stop]), /legacy format/);

  // Pickles that alias, nest and inflate.
  add(
    'pickle whose rows are one memoised list (memo aliasing)',
    'aliased.pkl',
    memoAliasedRows(120_000),
    /has 120,000 rows; your plan allows up to/,
  );
  add('pickle of tensors sharing one huge size tuple', 'shapes.pkl', memoAliasedShapes(40_000, 60_000), /more than 64 dimensions/);
  add(
    'joblib wrappers sharing one huge state dict',
    'joblib.pkl',
    memoAliasedJoblibState(20_000, 40_000),
    /joblib array wrapper .*damaged/,
  );
  add('pickle nested 20,000 lists deep', 'deep-list.pkl', deepPickleList(20_000), /nests values more than 1,000 levels deep/);
  add(
    'pickle of 1,000,000 marks',
    'deep-marks.pkl',
    Buffer.concat([P.proto, Buffer.alloc(1_000_000, '(')]),
    /nests values more than 1,000 levels deep/,
  );
  add(
    'pickle declaring a 2 GB string in a small file',
    'long-string.pkl',
    Buffer.concat([P.proto, Buffer.from('X'), u32(0x7fffffff), Buffer.from('abc')]),
    /truncated or damaged/,
  );
  add(
    'pickle of a million empty lists',
    'many-lists.pkl',
    Buffer.concat([P.proto, Buffer.alloc(1_040_000, ']'), P.stop]),
    /builds more than [\d,]+ values/,
  );

  // NumPy headers that lie.
  add(
    'npy declaring a shape of 10^15 x 10^15',
    'huge-shape.npy',
    Buffer.concat([npyHeader("'<f8'", '(1000000000000000, 1000000000000000)'), Buffer.alloc(64)]),
    /larger than any upload can hold/,
  );
  add(
    'npy declaring a 4 GB header',
    'long-header.npy',
    Buffer.concat([Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 2, 0]), u32(0xfffffff0), Buffer.alloc(100, 32)]),
    /NumPy header of 4,294,967,280 bytes/,
  );
  add(
    'npy with a structured dtype nested 5,000 deep',
    'deep-dtype.npy',
    Buffer.concat([npyHeader(`${"[('a', ".repeat(5_000)}'<f8'${')]'.repeat(5_000)}`, '(1,)', 0, 2), Buffer.alloc(8)]),
    /structured \(record\) array/,
  );

  // JSON and text that nest or sprawl.
  add('JSON array nested 1,000,000 deep', 'deep.json', Buffer.alloc(1_000_000, '['), /./);
  add(
    'JSON object nested 140,000 deep',
    'deep-object.json',
    Buffer.from(`{"rows": ${'{"a": '.repeat(140_000)}1${'}'.repeat(140_000)}}`),
    /nesting is too deep|not valid JSON/,
  );
  add(
    'text table with half-megabyte lines, the second ending in a word',
    'wide.txt',
    Buffer.from(`${'1,'.repeat(249_999)}1\n${'1,'.repeat(250_000)}x\n`),
    /Line 2 has "x" in column 250,001/,
  );
  add(
    'text of a million blank lines and one bad line',
    'lines.txt',
    Buffer.from(`1,2\n${'\n'.repeat(1_000_000)}1\n`),
    /Line 1,000,002 has 1 value; expected 2/,
  );

  // Python models whose sizes are not whole positive numbers, or cannot be read without running the code.
  for (const [name, fileName, body, fault, imports] of MODELS) add(name, fileName, model(body, imports), fault);
  add(
    'constants doubling 40 times (2^40 lookups if evaluated naively)',
    'doubling-40.py',
    doublingConstants(40),
    /has a size of 1,099,511,627,776/,
  );
  add(
    'constants doubling 80 times',
    'doubling.py',
    doublingConstants(80),
    /nn\.Linear on line 83 has a size that cannot be read without running the code/,
  );
  add('classes building each other twice, 24 levels deep', 'tree.py', wideClassTree(24), /more than [\d,]+ layers/);
  add(
    'a class that builds itself',
    'recursive.py',
    Buffer.from(
      'import torch.nn as nn\nclass A(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(2, 2)\n        self.again = A()\n',
    ),
    /builds itself/,
  );

  for (const f of files) {
    if (f.bytes.length > HOSTILE_MAX_BYTES) throw new Error(`hostile file ${f.fileName} is ${f.bytes.length} bytes, over the plan limit`);
  }
  return files;
}
