// How a model reads an upload's columns: by name, numbers as they are, a category one-hot (one input per class), a
// wider text column by its value's place among the values the fit saw. Fit and generate share it, so a model applied
// to another upload reads the same column the same way (by name, a category by its text, not its code).
import type { Table } from './table';

/** A category with at most this many values is one-hot encoded; wider ones are read as one ordinal input. */
export const ONE_HOT_MAX = 50;

export interface InputEncoding {
  name: string;
  /** The column's place in the fit's upload (used when an upload's columns have no names). */
  index: number;
  mode: 'number' | 'one-hot' | 'ordinal';
  /** one-hot and ordinal: the values the fit saw, in code order. */
  levels: string[] | null;
}

/** The names a table's columns go by: its own, or "column 1", "column 2"… (as the upload preview shows them). */
export const columnNamesOf = (t: Pick<Table, 'cols' | 'columns'>): string[] =>
  t.columns ?? Array.from({ length: t.cols }, (_, c) => `column ${c + 1}`);

/** Places of `names` among the table's columns; `missing` builds the sentence for a name the table lacks. */
export function indexOfNames(t: Table, names: readonly string[], missing: (name: string, have: string[]) => string): number[] {
  const have = columnNamesOf(t);
  const at = new Map(have.map((n, i) => [n, i]));
  return names.map((n) => {
    const i = at.get(n);
    if (i === undefined) throw new Error(missing(n, have));
    return i;
  });
}

/** The encoding of the fit's input columns, from the fit's own upload. */
export function encodingOf(t: Table, inputIdx: readonly number[]): InputEncoding[] {
  const names = columnNamesOf(t);
  return inputIdx.map((c) => {
    const kind = t.kinds?.[c];
    if (!kind || kind.type === 'number' || kind.type === 'boolean') return { name: names[c], index: c, mode: 'number', levels: null };
    const levels = kind.levels ?? [];
    return { name: names[c], index: c, mode: levels.length <= ONE_HOT_MAX ? 'one-hot' : 'ordinal', levels };
  });
}

/** Input features one encoded column gives. */
const widthOf = (e: InputEncoding) => (e.mode === 'one-hot' ? e.levels!.length : 1);

/**
 * The raw (not yet standardised) inputs of every row, `width` per row, from the columns at `idx` of `t`. A missing
 * value, or a class the fit never saw, is NaN (standardising makes it the mean).
 */
export function encodeInputs(t: Table, enc: readonly InputEncoding[], idx: readonly number[]): { values: Float64Array; width: number } {
  const width = enc.reduce((n, e) => n + widthOf(e), 0);
  const out = new Float64Array(t.rows * width);
  const v = t.values!;
  let offset = 0;
  enc.forEach((e, i) => {
    const c = idx[i];
    const kind = t.kinds?.[c];
    const text = kind && (kind.type === 'category' || kind.type === 'text');
    if (e.mode === 'number') {
      if (text) throw new Error(`The column "${e.name}" holds text in this upload; the model reads numbers from it.`);
      for (let r = 0; r < t.rows; r++) out[r * width + offset] = v[r * t.cols + c];
      offset++;
      return;
    }
    // A class is matched by its text: this upload's codes may differ from the fit's.
    const own = kind?.levels ?? null;
    const place = new Map(e.levels!.map((l, k) => [l, k]));
    const map = (code: number): number => {
      if (code !== code) return -1;
      const name = own ? own[code] : String(code);
      return place.get(name) ?? -1;
    };
    for (let r = 0; r < t.rows; r++) {
      const k = map(v[r * t.cols + c]);
      if (e.mode === 'ordinal') out[r * width + offset] = k < 0 ? NaN : k;
      else if (k < 0) for (let j = 0; j < e.levels!.length; j++) out[r * width + offset + j] = NaN;
      else out[r * width + offset + k] = 1;
    }
    offset += widthOf(e);
  });
  return { values: out, width };
}
