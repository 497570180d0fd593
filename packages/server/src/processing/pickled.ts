// Sizes of pickled uploads (.pkl, .pickle, .sav, .pt) read from the inert pickle description: NumPy arrays,
// joblib array wrappers, PyTorch tensors and storages, and plain lists of numbers.
import { fail, type AnalysisLimits, type Found } from './found';
import { depthError, MAX_PICKLE_DEPTH, PDict, PGlobal, PickleError, PList, PObj, PPersid, PTuple, readPickle, type PV } from './pickle';
import { isZip, MAX_INFLATED_BYTES, ZipArchive, ZipError } from './zip';

const fmt = (n: number) => n.toLocaleString('en-US');
const product = (a: number[]) => a.reduce((p, v) => p * v, 1);

/** NumPy allows 64 axes and PyTorch fewer; a longer shape is a crafted one (and would be costly to measure). */
const MAX_DIMS = 64;
/** No upload holds more values than this, in one array or in all of them. */
const MAX_ELEMENTS = 1e15;
/**
 * Values a pickle may build: a table pickled as lists or tuples takes about two per row (the row and its memo
 * entry), so three per row the plan allows leaves room for names, and bounds memory to the plan (measured: a 10 MB
 * file of empty lists peaks near 220 MB under Enterprise limits, under 25 MB under Individual ones).
 */
const valueBudget = (limits?: AnalysisLimits) => (limits ? Math.max(100_000, 3 * limits.rows) : undefined);
const tooLarge = () => new PickleError('This file declares arrays larger than any upload can hold, so it is damaged; save it again.');

const RECONSTRUCT = new Set(['numpy.core.multiarray._reconstruct', 'numpy._core.multiarray._reconstruct']);
const SCALAR = new Set(['numpy.core.multiarray.scalar', 'numpy._core.multiarray.scalar']);
const JOBLIB_WRAPPER = 'joblib.numpy_pickle.NumpyArrayWrapper';
const TENSOR_REBUILD =
  /^torch\._utils\._rebuild_(tensor|tensor_v2|tensor_v3|parameter|parameter_with_state|qtensor|sparse_tensor|nested_tensor|meta_tensor_no_storage)$/;

const STORAGE_ITEM: Record<string, number> = {
  DoubleStorage: 8,
  FloatStorage: 4,
  HalfStorage: 2,
  BFloat16Storage: 2,
  LongStorage: 8,
  IntStorage: 4,
  ShortStorage: 2,
  CharStorage: 1,
  ByteStorage: 1,
  BoolStorage: 1,
  ComplexFloatStorage: 8,
  ComplexDoubleStorage: 16,
  UntypedStorage: 1,
};

/** A shape: whole, non-negative sizes. Checking is bounded by MAX_DIMS, so one shape shared by many arrays stays cheap. */
const intTuple = (v: PV): number[] | null => {
  const items = v instanceof PTuple ? v.items : v instanceof PList ? v.items : null;
  if (!items) return null;
  if (items.length > MAX_DIMS)
    throw new PickleError(`An array in this file declares more than ${MAX_DIMS} dimensions, so the file is damaged; save it again.`);
  if (!items.every((x) => typeof x === 'number' && Number.isInteger(x) && x >= 0)) return null;
  if (product(items as number[]) > MAX_ELEMENTS) throw tooLarge();
  return items as number[];
};

/** The small state dicts read here (joblib's has 6 keys); a large one is not what they write. */
const MAX_STATE_KEYS = 64;
const dictGet = (d: PV, key: string): PV | undefined =>
  d instanceof PDict && d.entries.length <= MAX_STATE_KEYS ? d.entries.find(([k]) => k === key)?.[1] : undefined;

/** A NumPy dtype recorded as numpy.dtype('f8', ...): its item size, or null for object and unknown dtypes. */
function dtypeItemSize(dtype: PV): number | null {
  if (!(dtype instanceof PObj) || typeof dtype.args[0] !== 'string') return null;
  const m = /^[<>|=]?([biufc])(\d+)$/.exec(dtype.args[0]);
  if (m) return Number(m[2]);
  return dtype.args[0] === 'b1' || dtype.args[0] === '?' ? 1 : null;
}

interface Arrays {
  shapes: number[][];
  /** Sentences about parts whose size cannot be known without running code. */
  unknown: string[];
  storages: Map<string, { numel: number; type: string }>;
}

/**
 * Finds every array-like record reachable from the top value, breadth first: each shared (memoised) value is
 * visited once, at the depth it is first reached, so aliasing costs nothing and nesting is capped.
 */
function collect(top: PV): Arrays {
  const out: Arrays = { shapes: [], unknown: [], storages: new Map() };
  const seen = new Set<object>();
  let todo: PV[] = [top];
  for (let depth = 0; todo.length; depth++) {
    if (depth > MAX_PICKLE_DEPTH) throw depthError();
    const next: PV[] = [];
    for (const v of todo) visit(v, next);
    todo = next;
  }
  return out;

  function visit(v: PV, todo: PV[]): void {
    if (v === null || typeof v !== 'object' || seen.has(v)) return;
    seen.add(v);
    if (v instanceof PObj) {
      const name = v.className;
      if (RECONSTRUCT.has(name) && v.state instanceof PTuple) {
        const shape = intTuple(v.state.items[1]);
        if (shape && dtypeItemSize(v.state.items[2]) !== null) {
          out.shapes.push(shape);
          return;
        }
        if (shape) {
          out.unknown.push('an array of Python objects');
          return;
        }
      }
      if (SCALAR.has(name)) {
        out.shapes.push([]);
        return;
      }
      if (name === JOBLIB_WRAPPER) {
        const shape = intTuple(dictGet(v.state ?? null, 'shape') ?? null);
        if (shape) {
          out.shapes.push(shape);
          return;
        }
      }
      if (TENSOR_REBUILD.test(name)) {
        const size = intTuple(v.args[2] ?? null);
        if (size) out.shapes.push(size);
      }
      todo.push(v.cls, v.state ?? null);
      pushAll(todo, v.args);
      pushAll(todo, v.listItems);
      for (const [k, x] of v.dictItems) todo.push(k, x);
    } else if (v instanceof PPersid) {
      const id = v.id instanceof PTuple ? v.id.items : [];
      if (id[0] === 'storage' && typeof id[2] === 'string') {
        const type = id[1] instanceof PGlobal ? id[1].name : String(id[1]);
        const numel = typeof id[4] === 'number' ? id[4] : NaN;
        out.storages.set(id[2], { numel, type });
      }
    } else if (v instanceof PList || v instanceof PTuple) pushAll(todo, v.items);
    else if (v instanceof PDict) for (const [k, x] of v.entries) todo.push(k, x);
  }
}

/** push(...items) takes its items as call arguments, which overflow for long lists. */
function pushAll(into: PV[], items: readonly PV[]): void {
  for (const item of items) into.push(item);
}

/** A plain list of equal-length lists of numbers (or a flat list of numbers) read as a table. */
function plainTable(v: PV): { rows: number; cols: number } | null {
  const items = v instanceof PList || v instanceof PTuple ? v.items : null;
  if (!items || items.length === 0) return null;
  const num = (x: PV) => typeof x === 'number' || typeof x === 'bigint' || typeof x === 'boolean';
  if (items.every(num)) return { rows: items.length, cols: 1 };
  let cols = -1;
  // Long rows that are one memoised list are checked once: N references to a row of N numbers stay linear
  // (short rows are cheaper to check again than to remember).
  const checked = new Set<PV>();
  for (const row of items) {
    if (checked.has(row)) continue;
    const cells = row instanceof PList || row instanceof PTuple ? row.items : null;
    if (!cells || cells.length === 0 || (cols >= 0 && cells.length !== cols) || !cells.every(num)) return null;
    cols = cells.length;
    if (cols > 16) checked.add(row);
  }
  return { rows: items.length, cols };
}

function fromShapes(shapes: number[][]): Found {
  const inputs = shapes.reduce((s, sh) => s + product(sh), 0);
  if (inputs > MAX_ELEMENTS) return fail(tooLarge().message);
  if (shapes.length === 1) {
    const sh = shapes[0];
    return { ok: true, rows: sh.length ? sh[0] : 1, cols: sh.length ? product(sh.slice(1)) : 1, inputs };
  }
  // Arrays sharing their first axis (e.g. X and y of a dataset) read as one table, as in an .npz.
  if (shapes.every((sh) => sh.length > 0 && sh[0] === shapes[0][0])) {
    return { ok: true, rows: shapes[0][0], cols: shapes.reduce((c, sh) => c + product(sh.slice(1)), 0), inputs };
  }
  return { ok: true, rows: null, cols: null, inputs };
}

const COMPRESSED: Array<[number[], string]> = [
  [[0x1f, 0x8b], 'gzip'],
  [[0x78], 'zlib'],
  [[0xfd, 0x37, 0x7a, 0x58, 0x5a], 'xz'],
  [[0x42, 0x5a, 0x68], 'bz2'],
  [[0x04, 0x22, 0x4d, 0x18], 'lz4'],
];

export function readPickleFile(b: Uint8Array, limits?: AnalysisLimits): Found {
  const comp = COMPRESSED.find(([sig]) => sig.every((v, i) => b[i] === v));
  if (comp)
    return fail(
      `This file is ${comp[1]}-compressed; save it without compression (e.g. joblib.dump(obj, path) with compress=0) so its size can be read safely.`,
    );
  if (isZip(b)) return fail('This file is a zip archive, not a pickle; PyTorch files should be uploaded with the .pt extension.');
  let value: PV;
  try {
    value = readPickle(b, 0, { afterBuild: joblibInline, maxValues: valueBudget(limits) }).value;
  } catch (e) {
    if (e instanceof PickleError) return fail(e.message);
    throw e;
  }
  const table = plainTable(value);
  if (table) return { ok: true, ...table, inputs: table.rows * table.cols };
  try {
    const found = collect(value);
    if (found.shapes.length) return fromShapes(found.shapes);
    if (found.storages.size) return fromStorages(found);
    if (found.unknown.length)
      return fail(
        `This pickle holds ${found.unknown[0]}, whose size cannot be known without running its code; save a numeric array instead.`,
      );
  } catch (e) {
    if (e instanceof PickleError) return fail(e.message);
    throw e;
  }
  return fail('This pickle holds no numeric arrays or tables whose size can be read without running its code.');
}

/** joblib writes each array's bytes right after its wrapper's BUILD; they are skipped, never read. */
function joblibInline(obj: PV, r: { peek: (n: number) => Uint8Array }): number {
  if (!(obj instanceof PObj) || obj.className !== JOBLIB_WRAPPER) return 0;
  if (!(obj.state instanceof PDict) || obj.state.entries.length > MAX_STATE_KEYS) {
    throw new PickleError(
      'A joblib array wrapper in this file has a damaged state, so its array cannot be measured; save the file again with joblib.dump.',
    );
  }
  const shape = intTuple(dictGet(obj.state ?? null, 'shape') ?? null);
  const size = dtypeItemSize(dictGet(obj.state ?? null, 'dtype') ?? null);
  if (!shape || size === null)
    throw new PickleError('This joblib file holds arrays of Python objects, whose size cannot be known without running code.');
  let pad = 0;
  if (typeof dictGet(obj.state ?? null, 'numpy_array_alignment_bytes') === 'number') pad = 1 + r.peek(1)[0];
  return pad + product(shape) * size;
}

function fromStorages(found: Arrays): Found {
  let inputs = 0;
  for (const { numel } of found.storages.values()) {
    if (!Number.isFinite(numel)) return fail('A tensor storage in this file does not state its size.');
    if (!Number.isInteger(numel) || numel < 0 || numel > MAX_ELEMENTS)
      return fail(
        `A tensor storage in this file declares ${fmt(numel)} elements, which is not a possible size; save the file again with torch.save.`,
      );
    inputs += numel;
  }
  if (inputs > MAX_ELEMENTS)
    return fail('This file declares tensors larger than any upload can hold, so it is damaged; save it again with torch.save.');
  return { ok: true, rows: null, cols: null, inputs };
}

export function readPt(b: Uint8Array, limits?: AnalysisLimits): Found {
  if (!isZip(b)) {
    if (b[0] === 0x80) return fail("This .pt file uses PyTorch's legacy format; save it again with torch.save in PyTorch 1.6 or later.");
    return fail('This is not a PyTorch .pt file (it is not a zip archive).');
  }
  try {
    const zip = new ZipArchive(b);
    const pkl = zip.entries.find((e) => /(^|\/)data\.pkl$/.test(e.name));
    if (!pkl) return fail('This archive has no data.pkl, so it is not a PyTorch file saved with torch.save.');
    const prefix = pkl.name.slice(0, -'data.pkl'.length);
    if (pkl.size > MAX_INFLATED_BYTES)
      return fail(
        `The model description (data.pkl) in this archive declares ${fmt(pkl.size)} bytes; this service reads at most ${fmt(MAX_INFLATED_BYTES)}.`,
      );
    let found: Arrays;
    try {
      found = collect(readPickle(zip.read(pkl), 0, { maxValues: valueBudget(limits) }).value);
    } catch (e) {
      if (e instanceof PickleError) return fail(`data.pkl: ${e.message}`);
      throw e;
    }
    if (found.storages.size === 0) {
      if (found.shapes.length) return fromShapes(found.shapes);
      return fail('This PyTorch file holds no tensors.');
    }
    // Each storage's bytes sit in data/<key>; one that is shorter than stated means a damaged file.
    for (const [key, s] of found.storages) {
      const entry = zip.get(`${prefix}data/${key}`);
      const item = STORAGE_ITEM[s.type] ?? 1;
      if (!entry) return fail(`Tensor data ${key} is missing from the archive.`);
      if (Number.isFinite(s.numel) && entry.size < s.numel * item)
        return fail(`Tensor data ${key} is shorter than its ${fmt(s.numel)} elements.`);
    }
    const res = fromStorages(found);
    if (res.ok && found.shapes.length === 1 && found.storages.size === 1) {
      const one = fromShapes(found.shapes);
      if (one.ok) return { ...one, inputs: res.inputs };
    }
    return res;
  } catch (e) {
    if (e instanceof ZipError) return fail(e.message);
    throw e;
  }
}
