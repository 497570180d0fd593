// A pickle reader that never executes: it walks the opcodes (protocols 0-5) and builds an inert description
// of what the pickle would construct (globals are names, calls are records), so shapes of NumPy arrays and
// PyTorch tensors can be read from a .pkl, .pickle, .sav or a .pt archive without running its code.

export class PickleError extends Error {}

export class PBytes {
  constructor(readonly data: Uint8Array) {}
}
/**
 * Containers start with these shared empty arrays and get their own on the first item: a pickle of a million
 * empty lists then costs a million small objects, not two million. Never push to them.
 */
const NONE: PV[] = [];
const NO_PAIRS: Array<[PV, PV]> = [];
export class PList {
  items: PV[] = NONE;
}
export class PTuple {
  constructor(readonly items: PV[]) {}
}
export class PDict {
  entries: Array<[PV, PV]> = NO_PAIRS;
}
export class PSet {
  items: PV[] = NONE;
}
export class PGlobal {
  constructor(
    readonly module: string,
    readonly name: string,
  ) {}
  get full(): string {
    return `${this.module}.${this.name}`;
  }
}
/** A call the pickle asks for (REDUCE, NEWOBJ, INST, OBJ), recorded, never made. */
export class PObj {
  state: PV | undefined = undefined;
  listItems: PV[] = NONE;
  dictItems: Array<[PV, PV]> = NO_PAIRS;
  constructor(
    readonly cls: PV,
    readonly args: PV[],
  ) {}
  get className(): string {
    return this.cls instanceof PGlobal ? this.cls.full : '';
  }
}
export class PPersid {
  constructor(readonly id: PV) {}
}

export type PV = null | boolean | number | bigint | string | PBytes | PList | PTuple | PDict | PSet | PGlobal | PObj | PPersid;

export interface PickleOptions {
  /**
   * How many values (objects, strings, memo entries, stack slots) the pickle may make; memory grows with it,
   * so a small file of one-byte opcodes cannot build millions of them. Default DEFAULT_MAX_VALUES.
   */
  maxValues?: number;
  /** Called after BUILD; returns how many raw bytes follow in the stream (joblib writes array data inline). */
  afterBuild?: (obj: PV, reader: { peek: (n: number) => Uint8Array }) => number;
}

const latin1 = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.length).toString('latin1');
const utf8 = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.length).toString('utf8');

/** Python's pickler recurses once per level and stops near 1,000; a deeper pickle was not written by it. */
export const MAX_PICKLE_DEPTH = 1000;
export const depthError = () =>
  new PickleError(
    `The pickle nests values more than ${MAX_PICKLE_DEPTH.toLocaleString('en-US')} levels deep, which Python's pickle does not write; save the data as a flat array or list of rows.`,
  );

export const DEFAULT_MAX_VALUES = 1_000_000;

/** Opcodes that make a new object or string, or keep another reference (memo), counted against maxValues. */
const MAKES = new Uint8Array(256);
for (const op of [
  0x53, 0x54, 0x55, 0x56, 0x58, 0x8c, 0x8d, 0x42, 0x43, 0x8e, 0x96, 0x29, 0x74, 0x85, 0x86, 0x87, 0x5d, 0x6c, 0x7d, 0x64, 0x8f, 0x91, 0x63,
  0x93, 0x82, 0x83, 0x84, 0x52, 0x81, 0x92, 0x69, 0x6f, 0x50, 0x51, 0x70, 0x71, 0x72, 0x94,
])
  MAKES[op] = 1;

/** Integers wider than this only matter as "huge"; decoding megabytes of digits would take quadratic time. */
const MAX_LONG_BYTES = 64;

function decodeLong(b: Uint8Array): number | bigint {
  if (b.length === 0) return 0;
  if (b.length > MAX_LONG_BYTES) return b[b.length - 1] & 0x80 ? -Infinity : Infinity;
  let v = 0n;
  for (let i = b.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[i]);
  if (b[b.length - 1] & 0x80) v -= 1n << BigInt(8 * b.length);
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
}

/** Reads one pickle starting at `start`; returns the top value and where the pickle ended. */
export function readPickle(buf: Uint8Array, start = 0, opts: PickleOptions = {}): { value: PV; end: number } {
  try {
    return run(buf, start, opts);
  } catch (e) {
    // Protocols 2-5 start with PROTO; without it, a failure more likely means the file was never a pickle.
    if (e instanceof PickleError && buf[start] !== 0x80) throw new PickleError('The file is not a pickle, or it is damaged.');
    throw e;
  }
}

function run(buf: Uint8Array, start: number, opts: PickleOptions): { value: PV; end: number } {
  let pos = start;
  let stack: PV[] = [];
  const marks: PV[][] = [];
  const memo = new Map<number, PV>();
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const maxValues = opts.maxValues ?? DEFAULT_MAX_VALUES;
  let made = 0;

  const need = (n: number) => {
    if (n < 0 || pos + n > buf.length) throw new PickleError('The pickle is truncated or damaged.');
  };
  const take = (n: number) => {
    need(n);
    const s = buf.subarray(pos, pos + n);
    pos += n;
    return s;
  };
  const u8 = () => {
    need(1);
    return buf[pos++];
  };
  const u16 = () => {
    need(2);
    const v = dv.getUint16(pos, true);
    pos += 2;
    return v;
  };
  const u32 = () => {
    need(4);
    const v = dv.getUint32(pos, true);
    pos += 4;
    return v;
  };
  const i32 = () => {
    need(4);
    const v = dv.getInt32(pos, true);
    pos += 4;
    return v;
  };
  const u64 = () => {
    need(8);
    const hi = dv.getUint32(pos + 4, true);
    if (hi > 0x1fffff) throw new PickleError('The pickle is damaged (a length is impossibly large).');
    const v = hi * 0x100000000 + dv.getUint32(pos, true);
    pos += 8;
    return v;
  };
  const line = () => {
    const end = buf.indexOf(10, pos);
    if (end < 0) throw new PickleError('The pickle is truncated or damaged.');
    const s = latin1(buf.subarray(pos, end));
    pos = end + 1;
    return s;
  };
  const pop = (): PV => {
    if (stack.length === 0) throw new PickleError('The pickle is damaged (its stack underflows).');
    return stack.pop()!;
  };
  const top = (): PV => {
    if (stack.length === 0) throw new PickleError('The pickle is damaged (its stack underflows).');
    return stack[stack.length - 1];
  };
  // popMark swaps `stack`: callers take its result into a local before pushing, or the push lands on the old array.
  const popMark = (): PV[] => {
    const items = stack;
    const prev = marks.pop();
    if (!prev) throw new PickleError('The pickle is damaged (a mark is missing).');
    stack = prev;
    return items;
  };
  const memoGet = (i: number): PV => {
    if (!memo.has(i)) throw new PickleError('The pickle is damaged (it refers to a value it never stored).');
    return memo.get(i)!;
  };
  const setItems = (target: PV, kv: PV[]) => {
    let into: Array<[PV, PV]>;
    if (target instanceof PDict) into = target.entries === NO_PAIRS ? (target.entries = []) : target.entries;
    else if (target instanceof PObj) into = target.dictItems === NO_PAIRS ? (target.dictItems = []) : target.dictItems;
    else throw new PickleError('The pickle is damaged (items set on a value that is not a mapping).');
    for (let i = 0; i + 1 < kv.length; i += 2) into.push([kv[i], kv[i + 1]]);
  };
  const appendItems = (target: PV, items: PV[]) => {
    // A loop, not push(...items): one APPENDS may carry more items than a call takes arguments.
    let into: PV[];
    if (target instanceof PList || target instanceof PSet) into = target.items === NONE ? (target.items = []) : target.items;
    else if (target instanceof PObj) into = target.listItems === NONE ? (target.listItems = []) : target.listItems;
    else throw new PickleError('The pickle is damaged (items appended to a value that is not a list).');
    for (const item of items) into.push(item);
  };
  const str = (v: PV) => (typeof v === 'string' ? v : '');

  for (;;) {
    const op = u8();
    if ((MAKES[op] && ++made > maxValues) || stack.length > maxValues) {
      throw new PickleError(
        `The pickle builds more than ${maxValues.toLocaleString('en-US')} values, more than the data your plan accepts needs; save it as a NumPy array (numpy.save) or with fewer rows.`,
      );
    }
    switch (op) {
      case 0x80:
        u8();
        break; // PROTO
      case 0x95:
        u64();
        break; // FRAME: framing is only a read-ahead hint
      case 0x2e:
        return { value: pop(), end: pos }; // STOP
      case 0x28: // MARK
        if (marks.length >= MAX_PICKLE_DEPTH) throw depthError();
        marks.push(stack);
        stack = [];
        break;
      case 0x30:
        pop();
        break; // POP
      case 0x31:
        popMark();
        break; // POP_MARK
      case 0x32:
        stack.push(top());
        break; // DUP
      case 0x4e:
        stack.push(null);
        break; // NONE
      case 0x88:
        stack.push(true);
        break;
      case 0x89:
        stack.push(false);
        break;
      case 0x49: {
        // INT
        const s = line();
        stack.push(s === '01' ? true : s === '00' ? false : Number(s));
        break;
      }
      case 0x4a:
        stack.push(i32());
        break; // BININT
      case 0x4b:
        stack.push(u8());
        break; // BININT1
      case 0x4d:
        stack.push(u16());
        break; // BININT2
      case 0x4c: {
        // LONG
        const s = line().trim().replace(/L$/, '');
        if (!/^[+-]?\d+$/.test(s)) throw new PickleError('The pickle is damaged (a number is unreadable).');
        if (s.length > 2 * MAX_LONG_BYTES) {
          stack.push(s.startsWith('-') ? -Infinity : Infinity);
          break;
        }
        const b = BigInt(s);
        stack.push(b >= BigInt(Number.MIN_SAFE_INTEGER) && b <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(b) : b);
        break;
      }
      case 0x8a:
        stack.push(decodeLong(take(u8())));
        break; // LONG1
      case 0x8b:
        stack.push(decodeLong(take(i32())));
        break; // LONG4
      case 0x46:
        stack.push(Number(line()));
        break; // FLOAT
      case 0x47: {
        need(8);
        stack.push(dv.getFloat64(pos, false));
        pos += 8;
        break;
      } // BINFLOAT
      case 0x53:
        stack.push(line().replace(/^(['"])(.*)\1$/s, '$2'));
        break; // STRING
      case 0x54:
        stack.push(latin1(take(i32())));
        break; // BINSTRING
      case 0x55:
        stack.push(latin1(take(u8())));
        break; // SHORT_BINSTRING
      case 0x56:
        stack.push(line());
        break; // UNICODE (raw-unicode-escape; names only matter here)
      case 0x58:
        stack.push(utf8(take(u32())));
        break; // BINUNICODE
      case 0x8c:
        stack.push(utf8(take(u8())));
        break; // SHORT_BINUNICODE
      case 0x8d:
        stack.push(utf8(take(u64())));
        break; // BINUNICODE8
      case 0x42:
        stack.push(new PBytes(take(u32())));
        break; // BINBYTES
      case 0x43:
        stack.push(new PBytes(take(u8())));
        break; // SHORT_BINBYTES
      case 0x8e:
        stack.push(new PBytes(take(u64())));
        break; // BINBYTES8
      case 0x96:
        stack.push(new PBytes(take(u64())));
        break; // BYTEARRAY8
      case 0x97:
      case 0x98:
        throw new PickleError('The pickle refers to out-of-band buffers that are not in the file.');
      case 0x29:
        stack.push(new PTuple([]));
        break; // EMPTY_TUPLE
      case 0x74: {
        const items = popMark();
        stack.push(new PTuple(items));
        break;
      } // TUPLE
      case 0x85:
        stack.push(new PTuple([pop()]));
        break; // TUPLE1
      case 0x86: {
        const b = pop(),
          a = pop();
        stack.push(new PTuple([a, b]));
        break;
      } // TUPLE2
      case 0x87: {
        const c = pop(),
          b = pop(),
          a = pop();
        stack.push(new PTuple([a, b, c]));
        break;
      } // TUPLE3
      case 0x5d:
        stack.push(new PList());
        break; // EMPTY_LIST
      case 0x6c: {
        const l = new PList();
        l.items = popMark();
        stack.push(l);
        break;
      } // LIST
      case 0x61: {
        const v = pop();
        appendItems(top(), [v]);
        break;
      } // APPEND
      case 0x65: {
        const items = popMark();
        appendItems(top(), items);
        break;
      } // APPENDS
      case 0x7d:
        stack.push(new PDict());
        break; // EMPTY_DICT
      case 0x64: {
        const d = new PDict();
        setItems(d, popMark());
        stack.push(d);
        break;
      } // DICT
      case 0x73: {
        const v = pop(),
          k = pop();
        setItems(top(), [k, v]);
        break;
      } // SETITEM
      case 0x75: {
        const kv = popMark();
        setItems(top(), kv);
        break;
      } // SETITEMS
      case 0x8f:
        stack.push(new PSet());
        break; // EMPTY_SET
      case 0x90: {
        const items = popMark();
        appendItems(top(), items);
        break;
      } // ADDITEMS
      case 0x91: {
        const s = new PSet();
        s.items = popMark();
        stack.push(s);
        break;
      } // FROZENSET
      case 0x63: {
        const mod = line();
        stack.push(new PGlobal(mod, line()));
        break;
      } // GLOBAL
      case 0x93: {
        const name = pop(),
          mod = pop();
        stack.push(new PGlobal(str(mod), str(name)));
        break;
      } // STACK_GLOBAL
      case 0x82:
        stack.push(new PGlobal('copyreg.extension', String(u8())));
        break; // EXT1
      case 0x83:
        stack.push(new PGlobal('copyreg.extension', String(u16())));
        break; // EXT2
      case 0x84:
        stack.push(new PGlobal('copyreg.extension', String(i32())));
        break; // EXT4
      case 0x52: {
        // REDUCE
        const args = pop(),
          fn = pop();
        stack.push(new PObj(fn, args instanceof PTuple ? args.items : [args]));
        break;
      }
      case 0x81: {
        // NEWOBJ
        const args = pop(),
          cls = pop();
        stack.push(new PObj(cls, args instanceof PTuple ? args.items : [args]));
        break;
      }
      case 0x92: {
        // NEWOBJ_EX
        pop();
        const args = pop(),
          cls = pop();
        stack.push(new PObj(cls, args instanceof PTuple ? args.items : [args]));
        break;
      }
      case 0x69: {
        const mod = line(),
          name = line(),
          items = popMark();
        stack.push(new PObj(new PGlobal(mod, name), items));
        break;
      } // INST
      case 0x6f: {
        const items = popMark();
        stack.push(new PObj(items[0] ?? null, items.slice(1)));
        break;
      } // OBJ
      case 0x62: {
        // BUILD
        const state = pop();
        const obj = top();
        if (obj instanceof PObj) obj.state = state;
        const skip = opts.afterBuild?.(obj, { peek: (n) => buf.subarray(pos, Math.min(buf.length, pos + n)) }) ?? 0;
        if (skip) {
          need(skip);
          pos += skip;
        }
        break;
      }
      case 0x50:
        stack.push(new PPersid(line()));
        break; // PERSID
      case 0x51:
        stack.push(new PPersid(pop()));
        break; // BINPERSID
      case 0x67:
        stack.push(memoGet(Number(line())));
        break; // GET
      case 0x68:
        stack.push(memoGet(u8()));
        break; // BINGET
      case 0x6a:
        stack.push(memoGet(u32()));
        break; // LONG_BINGET
      case 0x70:
        memo.set(Number(line()), top());
        break; // PUT
      case 0x71:
        memo.set(u8(), top());
        break; // BINPUT
      case 0x72:
        memo.set(u32(), top());
        break; // LONG_BINPUT
      case 0x94:
        memo.set(memo.size, top());
        break; // MEMOIZE
      default:
        throw new PickleError(`The pickle is damaged (unknown opcode 0x${op.toString(16)} at byte ${pos - 1}).`);
    }
  }
}
