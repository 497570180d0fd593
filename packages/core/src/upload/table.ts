// CSV and TSV files as people have them (pandas, Excel, Kaggle) turned into the JSON table the server reads, before upload.
import Papa from 'papaparse';
import { PLAN_LIMITS } from '../limits';
import type { UploadSource } from './types';

/** One cell of a table: a number, a text, a boolean, or null for a missing value. */
export type TableCell = number | string | boolean | null;
/** The `{"columns","rows"}` table of DESIGN.md: a header and rows of cells. */
export interface JsonTable {
  columns: string[];
  rows: TableCell[][];
}

/** Extensions converted at the client; the server's list of allowed extensions stays SPEC's. */
export const TABLE_TEXT_EXTENSIONS = ['.csv', '.tsv'] as const;
/** The largest text converted (the largest file any plan uploads): bounded memory and time in every door. */
export const TABLE_TEXT_MAX_BYTES = PLAN_LIMITS.Enterprise.maxFileSize;
/** More columns than this is not a table a fit can use (the largest plan takes 500 inputs). */
export const TABLE_MAX_COLUMNS = 10_000;

/** What the drop zones and the CLI say about the shapes they accept. */
export const TABLE_SHAPES_NOTE =
  'A table with a header row: .csv or .tsv (turned into JSON before upload), or .json as {"columns","rows"}, a list of objects (pandas records), pandas split, a dict of column lists or a bare matrix.';

const extension = (name: string) => name.slice(name.lastIndexOf('.')).toLowerCase();

/** Whether a file is a CSV or TSV table that is converted before upload. */
export const isTableText = (name: string): boolean =>
  name.includes('.') && (TABLE_TEXT_EXTENSIONS as readonly string[]).includes(extension(name));

/** The uploaded file's name: `flowers.csv` → `flowers.json`. */
export const tableJsonName = (name: string): string => name.replace(/\.[^.]+$/, '') + '.json';

/** The line every door shows where the conversion happens. */
export const tableConvertedNote = (name: string): string => `${name} is uploaded as a JSON table (${tableJsonName(name)})`;

/** The texts pandas' read_csv reads as missing by default (its `na_values`). */
const MISSING = new Set([
  '',
  '#N/A',
  '#N/A N/A',
  '#NA',
  '-1.#IND',
  '-1.#QNAN',
  '-NaN',
  '-nan',
  '1.#IND',
  '1.#QNAN',
  '<NA>',
  'N/A',
  'NA',
  'NULL',
  'NaN',
  'None',
  'n/a',
  'nan',
  'null',
]);
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** A cell as pandas would read it: missing → null, a number, true/false, else the text as written. */
export function tableCell(raw: string): TableCell {
  const text = raw.trim();
  if (MISSING.has(text)) return null;
  if (NUMBER.test(text)) {
    const n = Number(text);
    if (Number.isFinite(n)) return n;
  }
  if (/^true$/i.test(text)) return true;
  if (/^false$/i.test(text)) return false;
  return raw;
}

/** Header names as pandas makes them: an empty one is `Unnamed: i`, a repeated one `name.1`, `name.2`, ... */
function headerNames(raw: readonly string[]): string[] {
  const used = new Set<string>();
  return raw.map((h, i) => {
    const base = h.trim() || `Unnamed: ${i}`;
    let name = base;
    for (let n = 1; used.has(name); n++) name = `${base}.${n}`;
    used.add(name);
    return name;
  });
}

export class TableTextError extends Error {}
const tooLarge = (name: string) =>
  new TableTextError(`${name} is larger than ${TABLE_TEXT_MAX_BYTES / 1024 / 1024} MB: split it, or upload it as .json`);

/**
 * A CSV (comma, semicolon, tab or bar, as found) or TSV text with a header row as a JSON table. Throws a
 * `TableTextError` with a sentence naming the file and what to fix. Short rows are filled with missing values and a
 * longer row is refused, as pandas does.
 */
export function parseTableText(name: string, text: string): JsonTable {
  if (text.length > TABLE_TEXT_MAX_BYTES) throw tooLarge(name);
  const tsv = extension(name) === '.tsv';
  // Papa Parse: quoted fields, CRLF or LF, a byte-order mark, and which delimiter a .csv uses.
  const parsed = Papa.parse<string[]>(text, {
    delimiter: tsv ? '\t' : '',
    delimitersToGuess: [',', ';', '\t', '|'],
    skipEmptyLines: 'greedy',
  });
  const broken = parsed.errors.find((e) => e.code === 'MissingQuotes' || e.code === 'InvalidQuotes');
  if (broken) throw new TableTextError(`${name} row ${(broken.row ?? 0) + 1}: a quoted value is not closed (a " is missing)`);
  const [header, ...body] = parsed.data;
  if (!header || body.length === 0) throw new TableTextError(`${name} has no rows: a header row and at least one row of values are needed`);
  if (header.length > TABLE_MAX_COLUMNS)
    throw new TableTextError(`${name} has ${header.length} columns; at most ${TABLE_MAX_COLUMNS} can be read`);
  const columns = headerNames(header);
  const rows = body.map((cells, i) => {
    if (cells.length > columns.length)
      throw new TableTextError(`${name} row ${i + 2} has ${cells.length} values but the header names ${columns.length} columns`);
    return columns.map((_, c) => (c < cells.length ? tableCell(cells[c]!) : null));
  });
  return { columns, rows };
}

/**
 * The uploaded file's bytes as an upload source: a `File` where there is one (browsers send a Blob with upload
 * progress; they cannot stream a request body over HTTP/1.1), else a plain source.
 */
export function textSource(name: string, text: string): UploadSource {
  const bytes = new TextEncoder().encode(text);
  if (typeof File !== 'undefined') return new File([bytes], name, { type: 'application/json' });
  return {
    name,
    size: bytes.byteLength,
    stream: () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes);
          controller.close();
        },
      }),
  };
}

/** A CSV/TSV text as the JSON file that is uploaded in its place. */
export function tableUpload(name: string, text: string): { source: UploadSource; table: JsonTable; note: string } {
  const table = parseTableText(name, text);
  return { source: textSource(tableJsonName(name), JSON.stringify(table)), table, note: tableConvertedNote(name) };
}

/** A file to upload that can also be read as text (a browser's `File`; the CLI's CSV on disk). */
export type ReadableSource = UploadSource & { text?(): Promise<string> };

/**
 * The files as they are uploaded: each CSV/TSV read and turned into its JSON table (bounded before it is read), the
 * others as they are; with the line to show for each one converted. Throws a `TableTextError` for a table that
 * cannot be read.
 */
export async function convertTables(files: readonly ReadableSource[]): Promise<{ files: UploadSource[]; notes: string[] }> {
  const notes: string[] = [];
  const out: UploadSource[] = [];
  for (const f of files) {
    if (!isTableText(f.name) || !f.text) {
      out.push(f);
      continue;
    }
    if (f.size > TABLE_TEXT_MAX_BYTES) throw tooLarge(f.name);
    const { source, note } = tableUpload(f.name, await f.text());
    out.push(source);
    notes.push(note);
  }
  return { files: out, notes };
}
