// JSON tables as people have them (pandas' orientations, lists of objects, dicts of columns), with text, category and
// boolean columns: read when the fast numeric scanner (table.ts) cannot, by JSON.parse (the file is at most the largest
// plan's size and the process's memory is capped), then laid out as the same row-major Float64Array the numeric path
// gives: numbers as they are, booleans as 0/1, text as the index of its value among the column's sorted values, and
// missing cells (null, an empty or "NA"-like text) as NaN.
import { TEXT_EMBEDDING_MESSAGES } from '@portal/core';

export type TableShape = 'columns-rows' | 'records' | 'split' | 'columns' | 'matrix';
export type CellKind = 'number' | 'boolean' | 'category' | 'text';

/** A column's kind; boolean, category and text columns name their codes in `levels`. */
export interface ColumnKind {
  type: CellKind;
  levels: string[] | null;
}

/** A user-facing failure, turned into `{ ok: false }` at the reader's edge. */
export class TableError extends Error {}

export interface ShapedTable {
  rows: number;
  cols: number;
  values: Float64Array;
  columns: string[] | null;
  kinds: ColumnKind[];
  shape: TableShape;
}

const fmt = (n: number) => n.toLocaleString('en-US');
/** Most columns a table may have (a list of objects whose rows each name new keys is not a table). */
export const MAX_COLUMNS = 10_000;
/** Texts that mean "no value" (pandas' read_csv `na_values`, compared without case). */
const MISSING_TEXT = new Set(
  ['', '#N/A', '#N/A N/A', '#NA', '-1.#IND', '-1.#QNAN', '-NaN', '1.#IND', '1.#QNAN', '<NA>', 'N/A', 'NA', 'NULL', 'NaN', 'None'].map((t) =>
    t.toLowerCase(),
  ),
);
/** A text column with at most this many distinct values (and no more than half the rows) is a category. */
const CATEGORY_MAX = 100;
const NUMBER_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A key's own value (never one inherited, e.g. a row without a "__proto__" key). */
const own = (o: Record<string, unknown>, k: string) => (Object.hasOwn(o, k) ? o[k] : undefined);
const what = (v: unknown) => (Array.isArray(v) ? 'a nested list' : 'an object');

interface Layout {
  shape: TableShape;
  names: string[] | null;
  rows: number;
  cols: number;
  cell: (r: number, c: number) => unknown;
}

function checkCells(rows: number, cols: number, budget: number): void {
  if (cols > MAX_COLUMNS) throw new TableError(`The table has ${fmt(cols)} columns; at most ${fmt(MAX_COLUMNS)} can be read.`);
  if (rows * cols > budget) {
    throw new TableError(
      `The table would have ${fmt(rows * cols)} cells (${fmt(rows)} rows × ${fmt(cols)} columns), more than the file's size allows: give every row the same keys.`,
    );
  }
}

/** Rows given as lists, each as long as the first (or as `names`). */
function listRows(list: unknown[], names: string[] | null, shape: TableShape, budget: number): Layout {
  if (!list.length) throw new TableError('The file holds no rows of data.');
  const first = list[0];
  if (isObject(first) && shape === 'columns-rows') return recordRows(list, shape, budget, names);
  if (!Array.isArray(first)) {
    if (typeof first === 'string') throw new TableError(TEXT_EMBEDDING_MESSAGES.textUpload);
    throw new TableError('Row 1 is not a list of values; write each row as a list, e.g. [[1, "a"], [2, "b"]].');
  }
  const cols = names?.length || first.length;
  if (!cols) throw new TableError('Row 1 is empty.');
  checkCells(list.length, cols, budget);
  for (let r = 0; r < list.length; r++) {
    const row = list[r];
    if (!Array.isArray(row)) throw new TableError(`Row ${fmt(r + 1)} is not a list of values like the rows before it.`);
    if (row.length !== cols) {
      if (names && r === 0)
        throw new TableError(
          `"columns" names ${fmt(names.length)} column${names.length === 1 ? '' : 's'} but each row has ${fmt(row.length)} value${row.length === 1 ? '' : 's'}.`,
        );
      throw new TableError(`Row ${fmt(r + 1)} has ${fmt(row.length)} value${row.length === 1 ? '' : 's'}; expected ${fmt(cols)}.`);
    }
  }
  return { shape, names, rows: list.length, cols, cell: (r, c) => (list[r] as unknown[])[c] };
}

/** A list of objects (pandas `records`): the columns are their keys, in the order first seen. */
function recordRows(list: unknown[], shape: TableShape, budget: number, given: string[] | null = null): Layout {
  const index = new Map<string, number>((given ?? []).map((n, i) => [n, i]));
  for (let r = 0; r < list.length; r++) {
    const row = list[r];
    if (!isObject(row)) throw new TableError(`Row ${fmt(r + 1)} is not an object like the rows before it.`);
    if (given) continue;
    for (const k in row) {
      if (!index.has(k)) {
        index.set(k, index.size);
        if (index.size > MAX_COLUMNS) checkCells(list.length, index.size, budget);
      }
    }
  }
  const names = [...index.keys()];
  if (!names.length) throw new TableError('The rows are empty objects: give each row its values by column name.');
  checkCells(list.length, names.length, budget);
  return { shape, names, rows: list.length, cols: names.length, cell: (r, c) => own(list[r] as Record<string, unknown>, names[c]) };
}

/** A dict of columns: `{"a": [..], "b": [..]}` (lists) or pandas' default `{"a": {"0": .., "1": ..}}` (by index). */
function columnDict(doc: Record<string, unknown>, budget: number): Layout {
  const names = Object.keys(doc);
  const first = doc[names[0]];
  if (Array.isArray(first)) {
    const rows = first.length;
    checkCells(rows, names.length, budget);
    for (const n of names) {
      const col = doc[n];
      if (!Array.isArray(col)) throw new TableError(`Column "${n}" is not a list of values like the columns before it.`);
      if (col.length !== rows)
        throw new TableError(
          `Column "${n}" has ${fmt(col.length)} value${col.length === 1 ? '' : 's'}; column "${names[0]}" has ${fmt(rows)}.`,
        );
    }
    if (!rows) throw new TableError('The file holds no rows of data.');
    return { shape: 'columns', names, rows, cols: names.length, cell: (r, c) => (doc[names[c]] as unknown[])[r] };
  }
  // By index: the rows are the index labels, in the order first seen.
  const index = new Map<string, number>();
  for (const n of names) {
    const col = doc[n];
    if (!isObject(col)) throw new TableError(`Column "${n}" is not an object of values by row like the columns before it.`);
    for (const k in col) if (!index.has(k)) index.set(k, index.size);
    checkCells(index.size, names.length, budget);
  }
  const labels = [...index.keys()];
  if (!labels.length) throw new TableError('The file holds no rows of data.');
  return {
    shape: 'columns',
    names,
    rows: labels.length,
    cols: names.length,
    cell: (r, c) => own(doc[names[c]] as Record<string, unknown>, labels[r]),
  };
}

const HOW =
  'write {"columns": [...], "rows": [[...], ...]}, a list of objects, {"columns": [...], "data": [[...], ...]} or {"name": [values], ...}';

function columnNames(v: unknown): string[] {
  if (!Array.isArray(v) || !v.every((n) => typeof n === 'string' || typeof n === 'number'))
    throw new TableError('"columns" must be a list of column names.');
  return v.map(String);
}

function layoutOf(doc: unknown, budget: number): Layout {
  if (Array.isArray(doc)) {
    if (!doc.length) throw new TableError('The file holds no rows of data.');
    if (isObject(doc[0])) return recordRows(doc, 'records', budget);
    if (typeof doc[0] === 'number')
      throw new TableError('Row 1 is a single number, not a list of numbers; write each row as a list, e.g. [[1, 2], [3, 4]].');
    return listRows(doc, null, 'matrix', budget);
  }
  if (!isObject(doc)) throw new TableError(`The file holds a single value, not a table: ${HOW}.`);
  const keys = Object.keys(doc);
  if (!keys.length) throw new TableError(`The file is an empty object: ${HOW}.`);
  if (Array.isArray(doc.rows))
    return listRows(doc.rows, doc.columns === undefined ? null : columnNames(doc.columns), 'columns-rows', budget);
  if (Array.isArray(doc.data)) {
    // pandas `split` ({columns, index, data}) and `table` ({schema, data: records}).
    if (doc.data.length && isObject(doc.data[0])) return recordRows(doc.data, 'records', budget);
    return listRows(doc.data, doc.columns === undefined ? null : columnNames(doc.columns), 'split', budget);
  }
  if (keys.every((k) => Array.isArray(doc[k])) || keys.every((k) => isObject(doc[k]))) return columnDict(doc, budget);
  throw new TableError(`The file is a JSON object without a table: ${HOW}.`);
}

interface Tally {
  numbers: number;
  booleans: number;
  texts: number;
}

/** Reads a parsed JSON document as a table; `budget` bounds its cells (rows × columns). */
export function shapeTable(doc: unknown, budget: number): ShapedTable {
  const { shape, names, rows, cols, cell } = layoutOf(doc, budget);
  const nameOf = (c: number) => (names ? `"${names[c]}"` : fmt(c + 1));
  const tallies: Tally[] = Array.from({ length: cols }, () => ({ numbers: 0, booleans: 0, texts: 0 }));
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const v = cell(r, c);
      const t = tallies[c];
      if (v === null || v === undefined) continue;
      if (typeof v === 'number') t.numbers++;
      else if (typeof v === 'boolean') t.booleans++;
      else if (typeof v === 'string') {
        const s = v.trim();
        if (MISSING_TEXT.has(s.toLowerCase())) continue;
        if (NUMBER_TEXT.test(s)) t.numbers++;
        else if (/^(?:true|false)$/i.test(s)) t.booleans++;
        else t.texts++;
      } else
        throw new TableError(
          `Row ${fmt(r + 1)} has ${what(v)} in column ${nameOf(c)}; each cell must be a number, a text, true/false or null.`,
        );
    }
  }
  const values = new Float64Array(rows * cols);
  const kinds: ColumnKind[] = [];
  for (let c = 0; c < cols; c++) {
    const t = tallies[c];
    if (t.texts > 0) {
      // Text: every present value as text, coded by its place among the sorted distinct values.
      const seen = new Map<string, number>();
      const raw: Array<string | null> = new Array(rows);
      for (let r = 0; r < rows; r++) {
        const v = cell(r, c);
        const s = v === null || v === undefined ? null : String(v).trim();
        raw[r] = s === null || MISSING_TEXT.has(s.toLowerCase()) ? null : s;
        if (raw[r] !== null && !seen.has(raw[r]!)) seen.set(raw[r]!, 0);
      }
      const levels = [...seen.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      levels.forEach((l, i) => seen.set(l, i));
      for (let r = 0; r < rows; r++) values[r * cols + c] = raw[r] === null ? NaN : seen.get(raw[r]!)!;
      const category = levels.length <= Math.min(CATEGORY_MAX, Math.max(20, Math.floor(rows / 2)));
      kinds.push({ type: category ? 'category' : 'text', levels });
      continue;
    }
    const bool = t.booleans > 0 && t.numbers === 0;
    for (let r = 0; r < rows; r++) {
      const v = cell(r, c);
      let x = NaN;
      if (typeof v === 'number') x = v;
      else if (typeof v === 'boolean') x = v ? 1 : 0;
      else if (typeof v === 'string') {
        const s = v.trim();
        if (NUMBER_TEXT.test(s)) x = Number(s);
        else if (/^true$/i.test(s)) x = 1;
        else if (/^false$/i.test(s)) x = 0;
      }
      if (x === Infinity || x === -Infinity) throw new TableError(`Row ${fmt(r + 1)} has a number too large to use.`);
      values[r * cols + c] = x;
    }
    kinds.push(bool ? { type: 'boolean', levels: ['false', 'true'] } : { type: 'number', levels: null });
  }
  return { rows, cols, values, columns: names, kinds, shape };
}
