// The upload preview, built once while the file is analysed (its bytes are in memory then): a table's first rows
// and per-column type, range, mean, missing count and histogram; a text upload's first texts; a model's layers.
import {
  PREVIEW_BINS,
  PREVIEW_COLUMNS,
  PREVIEW_NOTES,
  PREVIEW_ROWS,
  PREVIEW_TEXT_CHARS,
  PREVIEW_VALUES,
  type PreviewCell,
  type PreviewColumn,
  type UploadPreview,
} from '@portal/core';
import { readPyModel } from './pymodel';
import { scanJsonTable } from './table';
import type { ColumnKind, TableShape } from './shapes';

/** Distinct values counted per numeric column (beyond it the count says "at least"). */
const DISTINCT_CAP = 10_000;
/** Characters of a text cell a preview keeps. */
const CELL_CHARS = 200;

const fmt = (n: number) => n.toLocaleString('en-US');

const empty = (note: string | null, totalRows: number | null = null, totalCols: number | null = null): UploadPreview => ({
  kind: 'none',
  rows: [],
  columns: [],
  texts: [],
  model: null,
  totalRows,
  totalCols,
  note,
});

/** Statistics of column `c` of a row-major table of `cols` columns (non-finite values count as missing). */
export function columnStats(values: ArrayLike<number>, rows: number, cols: number, c: number, name: string): PreviewColumn {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let n = 0;
  let whole = true;
  for (let r = 0; r < rows; r++) {
    const v = values[r * cols + c];
    if (!Number.isFinite(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
    sum += v;
    n++;
    if (whole && !Number.isInteger(v)) whole = false;
  }
  const histogram = new Array<number>(n ? PREVIEW_BINS : 0).fill(0);
  if (n) {
    const width = (max - min) / PREVIEW_BINS;
    for (let r = 0; r < rows; r++) {
      const v = values[r * cols + c];
      if (!Number.isFinite(v)) continue;
      histogram[width > 0 ? Math.min(PREVIEW_BINS - 1, Math.floor((v - min) / width)) : 0]++;
    }
  }
  const distinct = new Set<number>();
  for (let r = 0; r < rows && distinct.size < DISTINCT_CAP; r++) {
    const v = values[r * cols + c];
    if (Number.isFinite(v)) distinct.add(v);
  }
  return {
    name,
    type: whole ? 'integer' : 'number',
    min: n ? min : null,
    max: n ? max : null,
    mean: n ? sum / n : null,
    missing: rows - n,
    histogram,
    distinct: distinct.size,
  };
}

/** A boolean, category or text column: its missing count, distinct values and the most frequent ones. */
function levelStats(values: ArrayLike<number>, rows: number, cols: number, c: number, name: string, kind: ColumnKind): PreviewColumn {
  const levels = kind.levels ?? [];
  const counts = new Array<number>(levels.length).fill(0);
  let missing = 0;
  for (let r = 0; r < rows; r++) {
    const v = values[r * cols + c];
    if (Number.isFinite(v)) counts[v]++;
    else missing++;
  }
  const order = counts.map((_, i) => i).sort((a, b) => counts[b] - counts[a] || a - b);
  return {
    name,
    type: kind.type === 'number' ? 'number' : kind.type,
    min: null,
    max: null,
    mean: null,
    missing,
    histogram: [],
    distinct: counts.filter((n) => n > 0).length,
    values: order.slice(0, PREVIEW_VALUES).map((i) => ({ value: levels[i].slice(0, CELL_CHARS), count: counts[i] })),
  };
}

/** A cell as the preview shows it. */
function cellOf(v: number, kind: ColumnKind | null): PreviewCell {
  if (!Number.isFinite(v)) return null;
  if (!kind || kind.type === 'number') return v;
  if (kind.type === 'boolean') return v === 1;
  return (kind.levels?.[v] ?? '').slice(0, CELL_CHARS);
}

/** A table's preview from its row-major values. */
function tablePreview(
  values: ArrayLike<number>,
  rows: number,
  cols: number,
  names: string[] | null,
  kinds: ColumnKind[] | null = null,
  shape: TableShape | null = null,
): UploadPreview {
  const shown = Math.min(cols, PREVIEW_COLUMNS);
  const columns = Array.from({ length: shown }, (_, c) => {
    const name = names?.[c] ?? `column ${c + 1}`;
    const kind = kinds?.[c];
    return kind && kind.type !== 'number' ? levelStats(values, rows, cols, c, name, kind) : columnStats(values, rows, cols, c, name);
  });
  const first: PreviewCell[][] = [];
  for (let r = 0; r < Math.min(rows, PREVIEW_ROWS); r++) {
    const row: PreviewCell[] = [];
    for (let c = 0; c < shown; c++) row.push(cellOf(values[r * cols + c], kinds?.[c] ?? null));
    first.push(row);
  }
  const left: string[] = [];
  if (rows > PREVIEW_ROWS) left.push(`the first ${fmt(PREVIEW_ROWS)} of ${fmt(rows)} rows`);
  if (cols > shown) left.push(`the first ${fmt(shown)} of ${fmt(cols)} columns`);
  return {
    kind: 'table',
    rows: first,
    columns,
    texts: [],
    model: null,
    totalRows: rows,
    totalCols: cols,
    shape,
    note: left.length ? `Showing ${left.join(' and ')}; the statistics cover every row.` : null,
  };
}

/** A text upload (a JSON array of strings): the first texts with their lengths, and the lengths' statistics. */
function textsPreview(list: string[]): UploadPreview {
  const lengths = list.map((t) => [...t].length);
  const length = columnStats(lengths, lengths.length, 1, 0, 'length');
  return {
    kind: 'texts',
    rows: [],
    columns: [{ ...length, type: 'text' }],
    texts: list.slice(0, PREVIEW_ROWS).map((t, i) => ({ text: t.slice(0, PREVIEW_TEXT_CHARS), length: lengths[i] })),
    model: null,
    totalRows: list.length,
    totalCols: null,
    note:
      list.length > PREVIEW_ROWS
        ? `Showing the first ${fmt(PREVIEW_ROWS)} of ${fmt(list.length)} texts; the statistics cover every text.`
        : null,
  };
}

/** Whether a JSON document starts as an array of strings (`[ "...`). */
function startsAsStrings(buf: Uint8Array): boolean {
  let i = 0;
  const ws = () => {
    while (
      i < buf.length &&
      (buf[i] === 32 || buf[i] === 10 || buf[i] === 13 || buf[i] === 9 || buf[i] === 0xef || buf[i] === 0xbb || buf[i] === 0xbf)
    )
      i++;
  };
  ws();
  if (buf[i] !== 91) return false;
  i++;
  ws();
  return buf[i] === 34;
}

function jsonPreview(buf: Uint8Array): UploadPreview {
  if (startsAsStrings(buf)) {
    // A byte-order mark is allowed before the list (the analysis accepts it), never by JSON.parse.
    const list: unknown = JSON.parse(
      Buffer.from(buf)
        .toString('utf8')
        .replace(/^\uFEFF/, ''),
    );
    if (Array.isArray(list) && list.every((t) => typeof t === 'string')) return textsPreview(list as string[]);
    return empty(PREVIEW_NOTES.failed);
  }
  const r = scanJsonTable(buf, true);
  if (!r.ok || !r.table.values) return empty(PREVIEW_NOTES.failed);
  // A table whose columns have no names gets "column 1", "column 2"…: the names a fit by column uses.
  const t = r.table;
  return tablePreview(t.values!, t.rows, t.cols, t.columns, t.kinds, t.shape);
}

const SPECIAL = /^[+-]?(?:nan|inf|infinity)$/i;

/** A delimited numeric .txt table (already checked by the analysis): its header names and values. */
function txtPreview(buf: Uint8Array): UploadPreview {
  const text = Buffer.from(buf)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  if (!lines.length) return empty(PREVIEW_NOTES.failed);
  const split: (l: string) => string[] = lines[0].includes(',')
    ? (l) => l.split(',').map((c) => c.trim())
    : lines[0].includes('\t')
      ? (l) => l.split('\t').map((c) => c.trim())
      : lines[0].includes(';')
        ? (l) => l.split(';').map((c) => c.trim())
        : (l) => l.split(/[ \t]+/);
  const isNum = (c: string) => c !== '' && (SPECIAL.test(c) || Number.isFinite(Number(c)));
  const head = split(lines[0]);
  const names = head.every(isNum) ? null : head;
  const body = names ? lines.slice(1) : lines;
  const cols = head.length;
  const values = new Float64Array(body.length * cols);
  body.forEach((l, r) => split(l).forEach((c, k) => k < cols && (values[r * cols + k] = SPECIAL.test(c) ? NaN : Number(c))));
  return tablePreview(values, body.length, cols, names);
}

function pyPreview(buf: Uint8Array): UploadPreview {
  const r = readPyModel(Buffer.from(buf).toString('utf8'));
  if (!r.ok) return empty(PREVIEW_NOTES.failed);
  return {
    ...empty(null),
    kind: 'model',
    model: {
      parameters: r.parameters,
      layers: r.layers.map((l) => ({ name: l.name, type: l.type, parameters: l.parameters, count: l.count })),
    },
  };
}

/** The preview of an analysed file; a reader that cannot show more says so in `note`. */
export function previewOf(buf: Uint8Array, ext: string, rows: number | null, cols: number | null): UploadPreview {
  try {
    if (ext === '.json') return jsonPreview(buf);
    if (ext === '.txt') return txtPreview(buf);
    if (ext === '.py') return pyPreview(buf);
  } catch {
    // The analysis accepted the file; a preview that cannot be built must not fail it.
  }
  return empty(PREVIEW_NOTES.binary, rows, cols);
}
