// Rows read from the drivers' arrays. A statement's answer comes from pg (`rowMode: 'array'`) and the embedded
// database as its column names once and each row's values in their order; a row is then one small object holding
// its values, whose class gives each column a getter reading its index. Rows as objects with a property per column,
// pg's default, are built by storing every value under its name, and across the many shapes of row a server reads
// those stores take V8's slowest path: on the project list's first page that was about a tenth of the server's
// instructions a request (bench/api's README, tenth session).
//
// A row reads like an object (`row.name`, destructuring); it is not one to spread or list the keys of.

/** A statement's answer: its column names, and each row's values in their order. */
export interface Columns {
  names: string[];
  rows: unknown[][];
}

const VALUES = Symbol('values');

type RowClass = new (values: unknown[]) => object;

/**
 * The row classes made so far, by their column names: one class per set of names, so a list's statements of every
 * shape give rows of one class (code reading them sees one kind of object). Column names are the code's, so the
 * classes are few; past CLASSES_MAX a class is made for the call and not kept.
 */
const classes = new Map<string, RowClass>();
const CLASSES_MAX = 200;

function rowClass(names: readonly string[]): RowClass {
  const key = names.join('\n');
  const known = classes.get(key);
  if (known) return known;
  class Row {
    readonly [VALUES]: unknown[];
    constructor(values: unknown[]) {
      this[VALUES] = values;
    }
    /** The row as a plain object (logs, JSON): a later column of the same name wins, as in pg's objects. */
    toJSON() {
      return Object.fromEntries(names.map((n, i) => [n, this[VALUES][i]]));
    }
  }
  names.forEach((name, i) =>
    Object.defineProperty(Row.prototype, name, {
      get(this: Row) {
        return this[VALUES][i];
      },
      enumerable: true,
      configurable: true,
    }),
  );
  if (classes.size < CLASSES_MAX) classes.set(key, Row);
  return Row;
}

/** The rows of an answer, each reading its columns by name. */
export function rowsOf<R>({ names, rows }: Columns): R[] {
  const Row = rowClass(names);
  const out = new Array<R>(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = new Row(rows[i]) as R;
  return out;
}
