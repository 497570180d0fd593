// A hand-written scanner for numeric tables in JSON (`[[...], ...]` or `{ "columns": [...], "rows": [[...]] }`).
// JSON.parse would build one JS array per row and one boxed value per cell; this walks the bytes once and
// only keeps the numbers when asked, so a 10 MB upload is checked in a fraction of JSON.parse's time and memory.
import { TEXT_EMBEDDING_MESSAGES } from '@portal/core';
import { shapeTable, TableError, type ColumnKind, type TableShape } from './shapes';

export interface Table {
  rows: number;
  cols: number;
  /** Row-major values, present when the scan was asked to collect them. */
  values: Float64Array | null;
  /** Column names of the object form, when given. */
  columns: string[] | null;
  /** Each column's kind (null: every column is numeric, the fast scanner's tables). */
  kinds: ColumnKind[] | null;
  /** How the JSON laid the table out. */
  shape: TableShape;
}

export type TableResult = { ok: true; table: Table } | { ok: false; error: string };

/** The bytes are not JSON (or nest deeper than any table): no other reading of them is tried. */
class JsonSyntaxError extends TableError {}

const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);
const MAX_EXACT = 9007199254740992;

const fmt = (n: number) => n.toLocaleString('en-US');

/** 1-based line of a byte offset, for syntax errors a user can find in an editor. */
function lineOf(buf: Uint8Array, pos: number): number {
  let line = 1;
  for (let i = 0; i < pos && i < buf.length; i++) if (buf[i] === 10) line++;
  return line;
}

class Scanner {
  pos = 0;
  rows = 0;
  cols = -1;
  values: Float64Array | null;
  count = 0;
  /** A NaN (missing) value was read. */
  sawNaN = false;

  constructor(
    private readonly buf: Uint8Array,
    collect: boolean,
  ) {
    // A number takes at least two bytes in a table ("1,"), which bounds the cells without a second pass.
    this.values = collect ? new Float64Array(Math.max(16, Math.min(1 << 20, buf.length >> 1))) : null;
  }

  syntax(what: string): never {
    const b = this.buf;
    if (this.pos >= b.length) throw new JsonSyntaxError('The file ends too early: the JSON is incomplete.');
    throw new JsonSyntaxError(`The file is not valid JSON: ${what} on line ${fmt(lineOf(b, this.pos))}.`);
  }

  ws(): void {
    const b = this.buf;
    let p = this.pos;
    while (p < b.length) {
      const c = b[p];
      if (c === 32 || c === 10 || c === 13 || c === 9) p++;
      else break;
    }
    this.pos = p;
  }

  /** Skips any JSON value (used for keys the table form does not read). */
  skipValue(depth = 0): void {
    if (depth > 256) this.syntax('nesting is too deep');
    this.ws();
    const c = this.buf[this.pos];
    if (c === 34) {
      this.readString();
      return;
    }
    if (c === 91 || c === 123) {
      const close = c === 91 ? 93 : 125;
      this.pos++;
      this.ws();
      if (this.buf[this.pos] === close) {
        this.pos++;
        return;
      }
      for (;;) {
        if (close === 125) {
          this.ws();
          if (this.buf[this.pos] !== 34) this.syntax('expected a quoted key');
          this.readString();
          this.ws();
          if (this.buf[this.pos] !== 58) this.syntax('expected ":"');
          this.pos++;
        }
        this.skipValue(depth + 1);
        this.ws();
        const d = this.buf[this.pos];
        if (d === 44) {
          this.pos++;
          continue;
        }
        if (d === close) {
          this.pos++;
          return;
        }
        this.syntax(`expected "," or "${String.fromCharCode(close)}"`);
      }
    }
    if (this.matchWord('true') || this.matchWord('false') || this.matchWord('null')) return;
    if (c === 45 || (c >= 48 && c <= 57)) {
      this.number(false);
      return;
    }
    this.syntax('unexpected character');
  }

  matchWord(w: string): boolean {
    for (let i = 0; i < w.length; i++) if (this.buf[this.pos + i] !== w.charCodeAt(i)) return false;
    this.pos += w.length;
    return true;
  }

  readString(): string {
    const b = this.buf;
    const start = ++this.pos;
    let escaped = false;
    while (this.pos < b.length) {
      const c = b[this.pos];
      if (c === 92) {
        escaped = true;
        this.pos += 2;
        continue;
      }
      if (c === 34) {
        const raw = Buffer.from(b.buffer, b.byteOffset + start, this.pos - start).toString('utf8');
        this.pos++;
        if (!escaped) return raw;
        try {
          return JSON.parse(`"${raw}"`) as string;
        } catch {
          this.syntax('a string has a bad escape');
        }
      }
      if (c < 32) this.syntax('a string has a raw control character');
      this.pos++;
    }
    return this.syntax('a string is not closed');
  }

  /** Reads a JSON number at pos; returns its value (NaN when not collecting, to skip the arithmetic). */
  number(want: boolean): number {
    const b = this.buf;
    const start = this.pos;
    let p = start;
    let neg = false;
    if (b[p] === 45) {
      neg = true;
      p++;
    }
    let mant = 0;
    let exp10 = 0;
    let exact = true;
    let c = b[p];
    if (c === 48) {
      p++;
    } else if (c >= 49 && c <= 57) {
      do {
        if (mant < MAX_EXACT / 10) mant = mant * 10 + (c - 48);
        else {
          exact = false;
        }
        c = b[++p];
      } while (c >= 48 && c <= 57);
    } else {
      return NaN - 1; // signalled to the caller as "not a number here"
    }
    c = b[p];
    if (c === 46) {
      c = b[++p];
      if (!(c >= 48 && c <= 57)) {
        this.pos = p;
        this.syntax('a number has no digits after "."');
      }
      do {
        if (mant < MAX_EXACT / 10) {
          mant = mant * 10 + (c - 48);
          exp10--;
        } else exact = false;
        c = b[++p];
      } while (c >= 48 && c <= 57);
    }
    if (c === 101 || c === 69) {
      c = b[++p];
      let eneg = false;
      if (c === 43 || c === 45) {
        eneg = c === 45;
        c = b[++p];
      }
      if (!(c >= 48 && c <= 57)) {
        this.pos = p;
        this.syntax('a number has no digits in its exponent');
      }
      let e = 0;
      do {
        if (e < 100000) e = e * 10 + (c - 48);
        c = b[++p];
      } while (c >= 48 && c <= 57);
      exp10 += eneg ? -e : e;
    }
    this.pos = p;
    if (!want) return 0;
    let v: number;
    if (exact && exp10 >= -22 && exp10 <= 22) {
      // Clinger's fast path: one correctly rounded operation on exact operands.
      v = exp10 < 0 ? mant / POW10[-exp10] : mant * POW10[exp10];
      if (neg) v = -v;
    } else {
      v = Number(Buffer.from(b.buffer, b.byteOffset + start, p - start).toString('latin1'));
    }
    if (!Number.isFinite(v)) throw new TableError(`Row ${fmt(this.rows + 1)} has a number too large to use.`);
    return v;
  }

  push(v: number): void {
    let vals = this.values!;
    if (this.count === vals.length) {
      const next = new Float64Array(vals.length * 2);
      next.set(vals);
      this.values = vals = next;
    }
    vals[this.count++] = v;
  }

  /** What a non-number cell is, in words, for the row's message. */
  describeCell(): string {
    const c = this.buf[this.pos];
    if (c === 34) return `text (${JSON.stringify(this.readString().slice(0, 30))})`;
    if (c === 91) return 'a nested list';
    if (c === 123) return 'an object';
    if (c === 110) return 'null';
    if (c === 116 || c === 102) return 'true or false';
    return 'something that is not a number';
  }

  rowsArray(): void {
    const b = this.buf;
    const collect = this.values !== null;
    this.ws();
    if (b[this.pos] !== 91) this.syntax('expected "[" to start the list of rows');
    this.pos++;
    this.ws();
    if (b[this.pos] === 93) {
      this.pos++;
      return;
    }
    for (;;) {
      this.ws();
      const row = this.rows + 1;
      if (b[this.pos] !== 91) {
        if (b[this.pos] === 45 || (b[this.pos] >= 48 && b[this.pos] <= 57)) {
          throw new TableError(
            `Row ${fmt(row)} is a single number, not a list of numbers; write each row as a list, e.g. [[1, 2], [3, 4]].`,
          );
        }
        if (this.pos >= b.length) this.syntax('');
        if (b[this.pos] === 34 && row === 1) throw new TableError(TEXT_EMBEDDING_MESSAGES.textUpload);
        if (b[this.pos] === 123) {
          throw new TableError(
            `Row ${fmt(row)} is an object; write each row as a list of numbers, with the names once in { "columns": [...], "rows": [[...], ...] }.`,
          );
        }
        throw new TableError(`Row ${fmt(row)} is not a list of numbers.`);
      }
      this.pos++;
      let n = 0;
      this.ws();
      if (b[this.pos] === 93) {
        throw new TableError(`Row ${fmt(row)} is empty.`);
      }
      for (;;) {
        this.ws();
        const v = this.number(collect);
        // Python's json.dump writes a missing float as NaN (not JSON, but what a data scientist's file holds).
        if (Number.isNaN(v) && this.matchWord('NaN')) this.sawNaN = true;
        else if (Number.isNaN(v)) {
          if (this.pos >= b.length) this.syntax('');
          throw new TableError(`Row ${fmt(row)} has ${this.describeCell()} in column ${fmt(n + 1)}; every value must be a number.`);
        }
        n++;
        if (collect) this.push(v);
        // Skip the usual single space after a comma without a call.
        let c = b[this.pos];
        if (c === 32 || c === 10 || c === 13 || c === 9) {
          this.ws();
          c = b[this.pos];
        }
        if (c === 44) {
          this.pos++;
          continue;
        }
        if (c === 93) {
          this.pos++;
          break;
        }
        this.syntax('expected "," or "]" inside a row');
      }
      if (this.cols < 0) this.cols = n;
      else if (n !== this.cols) {
        throw new TableError(`Row ${fmt(row)} has ${fmt(n)} value${n === 1 ? '' : 's'}; expected ${fmt(this.cols)}.`);
      }
      this.rows++;
      this.ws();
      const c = b[this.pos];
      if (c === 44) {
        this.pos++;
        continue;
      }
      if (c === 93) {
        this.pos++;
        return;
      }
      this.syntax('expected "," or "]" between rows');
    }
  }

  columnNames(): string[] {
    const names: string[] = [];
    this.ws();
    if (this.buf[this.pos] !== 91) throw new TableError('"columns" must be a list of column names.');
    this.pos++;
    this.ws();
    if (this.buf[this.pos] === 93) {
      this.pos++;
      return names;
    }
    for (;;) {
      this.ws();
      const c = this.buf[this.pos];
      if (c === 34) names.push(this.readString());
      else if (c === 45 || (c >= 48 && c <= 57)) {
        const s = this.pos;
        this.number(false);
        names.push(Buffer.from(this.buf.subarray(s, this.pos)).toString());
      } else throw new TableError('"columns" must be a list of column names.');
      this.ws();
      const d = this.buf[this.pos];
      if (d === 44) {
        this.pos++;
        continue;
      }
      if (d === 93) {
        this.pos++;
        return names;
      }
      this.syntax('expected "," or "]" in "columns"');
    }
  }

  document(): Table {
    const b = this.buf;
    // A UTF-8 byte order mark is common from some editors.
    if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) this.pos = 3;
    this.ws();
    if (this.pos >= b.length) throw new TableError('The file is empty.');
    let columns: string[] | null = null;
    let sawRows = false;
    let shape: TableShape = 'matrix';
    if (b[this.pos] === 91) {
      this.rowsArray();
      sawRows = true;
    } else if (b[this.pos] === 123) {
      shape = 'columns-rows';
      this.pos++;
      this.ws();
      if (b[this.pos] !== 125) {
        for (;;) {
          this.ws();
          if (b[this.pos] !== 34) this.syntax('expected a quoted key');
          const key = this.readString();
          this.ws();
          if (b[this.pos] !== 58) this.syntax('expected ":"');
          this.pos++;
          if (key === 'rows') {
            this.rowsArray();
            sawRows = true;
          } else if (key === 'columns') columns = this.columnNames();
          else this.skipValue();
          this.ws();
          const c = b[this.pos];
          if (c === 44) {
            this.pos++;
            continue;
          }
          if (c === 125) {
            this.pos++;
            break;
          }
          this.syntax('expected "," or "}"');
        }
      } else this.pos++;
      if (!sawRows) throw new TableError('The file has no "rows": write { "columns": [...], "rows": [[...], ...] } or a list of rows.');
    } else {
      this.syntax('expected a list of rows "[" or an object "{"');
    }
    this.ws();
    if (this.pos < b.length) this.syntax('extra content after the data');
    if (this.rows === 0) throw new TableError('The file holds no rows of data.');
    if (columns && columns.length > 0 && columns.length !== this.cols) {
      throw new TableError(
        `"columns" names ${fmt(columns.length)} column${columns.length === 1 ? '' : 's'} but each row has ${fmt(this.cols)} value${this.cols === 1 ? '' : 's'}.`,
      );
    }
    return {
      rows: this.rows,
      cols: this.cols,
      values: this.values ? this.values.subarray(0, this.count) : null,
      columns,
      // A missing value makes the table's columns typed (numbers), so every reader treats NaN as missing.
      kinds: this.sawNaN ? Array.from({ length: this.cols }, () => ({ type: 'number' as const, levels: null })) : null,
      shape,
    };
  }
}

/**
 * Reads a JSON table; `collect` keeps the values (row-major) for training and generation. A numeric table in
 * `{"columns","rows"}` or as a bare matrix takes the fast scanner; any other table (other orientations, text,
 * booleans, missing values) is parsed whole and shaped (shapes.ts), and then always has its values.
 */
export function scanJsonTable(buf: Uint8Array, collect: boolean): TableResult {
  let fast: string;
  try {
    return { ok: true, table: new Scanner(buf, collect).document() };
  } catch (e) {
    if (!(e instanceof TableError)) throw e;
    if (e instanceof JsonSyntaxError) return { ok: false, error: e.message };
    fast = e.message;
  }
  let doc: unknown;
  try {
    doc = JSON.parse(
      Buffer.from(buf.buffer, buf.byteOffset, buf.length)
        .toString('utf8')
        .replace(/^\uFEFF/, ''),
    );
  } catch {
    // Not JSON: the scanner's sentence names the line.
    return { ok: false, error: fast };
  }
  try {
    return { ok: true, table: shapeTable(doc, Math.max(1 << 16, buf.length)) };
  } catch (e) {
    if (e instanceof TableError) return { ok: false, error: e.message };
    throw e;
  }
}
