// NumPy .npy headers (shape and dtype) and .npz archives of them; array data is never interpreted.
import { fail, type Found } from './found';
import { isZip, ZipArchive, ZipError } from './zip';

export interface NpyInfo {
  shape: number[];
  dtype: string;
  itemSize: number;
  headerEnd: number;
}

const fmt = (n: number) => n.toLocaleString('en-US');
const product = (a: number[]) => a.reduce((p, v) => p * v, 1);

/** NumPy itself refuses headers over 10,000 bytes by default; anything past 64 KB is not a NumPy header. */
export const MAX_NPY_HEADER = 65_536;
/** More axes than NumPy allows (64), or more values than any upload can hold, means a damaged header. */
const MAX_DIMS = 64;
const MAX_DIM = 1e12;
const MAX_ELEMENTS = 1e15;

/** Bytes needed to know a .npy header's length. */
export const NPY_PREAMBLE = 12;
/** Where the header of a .npy that starts with `b` ends, or null when `b` is not a .npy preamble. */
export function npyHeaderEnd(b: Uint8Array): number | null {
  if (b.length < 10) return null;
  if (b[6] === 1) return 10 + (b[8] | (b[9] << 8));
  if ((b[6] === 2 || b[6] === 3) && b.length >= 12) return 12 + (b[8] | (b[9] << 8) | (b[10] << 16)) + b[11] * 0x1000000;
  return null;
}

/** Item size in bytes of a numeric NumPy dtype string such as '<f8', '|u1' or '<c16'; null for objects. */
function itemSize(descr: string): number | null {
  const m = /^[<>|=]?([biufc])(\d+)$/.exec(descr) ?? /^[<>|=]?(\?)$/.exec(descr);
  if (!m) return null;
  if (m[1] === '?') return 1;
  const n = Number(m[2]);
  return n > 0 && n <= 32 ? n : null;
}

/** Parses a .npy header; returns a user sentence when it cannot be used. */
export function npyHeader(b: Uint8Array, what = 'The file'): NpyInfo | string {
  const magic = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59];
  if (b.length < 10 || magic.some((v, i) => b[i] !== v)) return `${what} is not a NumPy .npy file (its header is missing).`;
  const major = b[6];
  let len: number, start: number;
  if (major === 1) {
    len = b[8] | (b[9] << 8);
    start = 10;
  } else if (major === 2 || major === 3) {
    len = (b[8] | (b[9] << 8) | (b[10] << 16)) + b[11] * 0x1000000;
    start = 12;
  } else return `${what} uses NumPy format version ${major}, which this service does not read.`;
  if (len > MAX_NPY_HEADER)
    return `${what} declares a NumPy header of ${fmt(len)} bytes; NumPy writes at most ${fmt(MAX_NPY_HEADER)}, so the file is damaged.`;
  if (start + len > b.length) return `${what} is truncated (its header is cut short).`;
  const header = Buffer.from(b.subarray(start, start + len)).toString(major === 3 ? 'utf8' : 'latin1');
  const descr = /['"]descr['"]\s*:\s*['"]([^'"]+)['"]/.exec(header);
  const shape = /['"]shape['"]\s*:\s*\(([^)]*)\)/.exec(header);
  if (!descr || !shape) {
    if (/['"]descr['"]\s*:\s*\[/.test(header)) return `${what} holds a structured (record) array; upload a plain numeric array.`;
    return `${what} has an unreadable NumPy header.`;
  }
  const size = itemSize(descr[1]);
  if (size === null) {
    return descr[1].includes('O')
      ? `${what} holds Python objects (dtype object), which cannot be read without running code; save a numeric array instead.`
      : `${what} has dtype ${descr[1]}, which is not numeric.`;
  }
  const dims = shape[1]
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (dims.some((d) => !/^\d+L?$/.test(d))) return `${what} has an unreadable shape (${shape[1].slice(0, 80)}).`;
  const numbers = dims.map((d) => parseInt(d, 10));
  if (numbers.length > MAX_DIMS || numbers.some((d) => d > MAX_DIM) || product(numbers) > MAX_ELEMENTS) {
    return `${what} declares a shape (${shape[1].slice(0, 80)}) larger than any upload can hold, so it is damaged.`;
  }
  return { shape: numbers, dtype: descr[1], itemSize: size, headerEnd: start + len };
}

/** Rows are the first axis, columns the product of the others (a 1-D array is one column). */
function rowsCols(shape: number[]): { rows: number; cols: number } {
  if (shape.length === 0) return { rows: 1, cols: 1 };
  return { rows: shape[0], cols: product(shape.slice(1)) };
}

export function readNpy(b: Uint8Array): Found {
  const h = npyHeader(b);
  if (typeof h === 'string') return fail(h);
  const elements = product(h.shape);
  const expected = elements * h.itemSize;
  const actual = b.length - h.headerEnd;
  if (actual < expected)
    return fail(`The file is truncated: its header describes ${fmt(expected)} bytes of data, but it holds ${fmt(actual)}.`);
  if (elements === 0) return fail('The array is empty.');
  return { ok: true, ...rowsCols(h.shape), inputs: elements };
}

export function readNpz(b: Uint8Array): Found {
  if (!isZip(b)) return fail('The file is not a NumPy .npz archive (it is not a zip file).');
  try {
    const zip = new ZipArchive(b);
    const arrays = zip.entries.filter((e) => e.name.endsWith('.npy'));
    if (arrays.length === 0) return fail('The archive holds no .npy arrays.');
    let inputs = 0;
    const shapes: number[][] = [];
    for (const e of arrays) {
      const label = `Array ${e.name.slice(0, -4)}`;
      // Only the header is inflated (its length first, then the rest); the array data stays compressed.
      const stream = zip.open(e);
      const end = npyHeaderEnd(stream.take(NPY_PREAMBLE));
      const h = npyHeader(stream.take(end === null ? NPY_PREAMBLE : Math.min(end, NPY_PREAMBLE + MAX_NPY_HEADER)), label);
      if (typeof h === 'string') return fail(h);
      const elements = product(h.shape);
      if (e.size !== h.headerEnd + elements * h.itemSize) return fail(`${label} is damaged: its size does not match its header.`);
      inputs += elements;
      shapes.push(h.shape);
    }
    if (inputs === 0) return fail('The arrays in the archive are empty.');
    // One array, or arrays sharing their first axis (e.g. x and y), read as one table.
    const rows = shapes[0].length ? shapes[0][0] : 1;
    if (shapes.every((s) => (s.length ? s[0] : 1) === rows)) {
      return { ok: true, rows, cols: shapes.reduce((c, s) => c + rowsCols(s).cols, 0), inputs };
    }
    return { ok: true, rows: null, cols: null, inputs };
  } catch (e) {
    if (e instanceof ZipError) return fail(e.message);
    throw e;
  }
}
