// gh-style output: --json prints only JSON; a padded table on a TTY; tab-separated lines when piped. Everything
// printed passes core's printable escaping: text from the server cannot drive the terminal it is printed on.
import { printable, printableJson, withEdgeNames } from '@portal/core';
import { CliError, EXIT } from './errors';

export interface OutStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface Column<T> {
  header: string;
  get(row: T): string | number | null | undefined;
}

/** One line of a table or field list: controls, line breaks and bidi characters shown as visible escapes. */
const cell = (v: string | number | null | undefined) => (v === null || v === undefined || v === '' ? '-' : printable(String(v)));

export function renderTable<T>(rows: readonly T[], cols: readonly Column<T>[], tty: boolean): string {
  const body = rows.map((r) => cols.map((c) => cell(c.get(r))));
  if (!tty) return body.map((line) => line.join('\t') + '\n').join('');
  const all = [cols.map((c) => c.header.toUpperCase()), ...body];
  const widths = cols.map((_, i) => Math.max(...all.map((line) => line[i].length)));
  return all
    .map(
      (line) =>
        line
          .map((v, i) => (i === line.length - 1 ? v : v.padEnd(widths[i])))
          .join('  ')
          .trimEnd() + '\n',
    )
    .join('');
}

export function renderFields(fields: ReadonlyArray<readonly [string, string | number | null | undefined]>, tty: boolean): string {
  if (!tty) return fields.map(([k, v]) => `${k}\t${cell(v)}\n`).join('');
  const width = Math.max(...fields.map(([k]) => k.length)) + 1;
  return fields.map(([k, v]) => `${(k + ':').padEnd(width)} ${cell(v)}\n`).join('');
}

/** How a command's output is cut down: `--json a,b,c` fields and `--limit N` rows. */
export interface OutputShape {
  fields?: readonly string[];
  limit?: number;
}

/** The value with only these fields (of the object, or of each object of an array); unknown names are a usage error. */
export function pickFields(value: unknown, fields: readonly string[]): unknown {
  const rows = Array.isArray(value) ? value : [value];
  const objects = rows.filter((r): r is Record<string, unknown> => !!r && typeof r === 'object' && !Array.isArray(r));
  if (objects.length === 0) return value;
  const available = [...new Set(objects.flatMap((o) => Object.keys(o)))];
  const unknown = fields.filter((f) => !available.includes(f));
  // An empty list has no fields to check the names against: it stays an empty list.
  if (unknown.length > 0)
    throw new CliError(`Unknown JSON field: ${unknown.join(', ')}\nAvailable fields:\n  ${available.sort().join('\n  ')}`, EXIT.usage);
  const pick = (o: unknown) =>
    o && typeof o === 'object' && !Array.isArray(o)
      ? Object.fromEntries(fields.filter((f) => f in o).map((f) => [f, (o as Record<string, unknown>)[f]]))
      : o;
  return Array.isArray(value) ? value.map(pick) : pick(value);
}

export class Output {
  constructor(
    readonly stdout: OutStream,
    readonly stderr: OutStream,
    readonly json: boolean,
    readonly shape: OutputShape = {},
  ) {}

  get tty(): boolean {
    return !!this.stdout.isTTY;
  }

  /** A list: a JSON array with --json (each object with `id` and `status` beside the wire's names), else a table, or SPEC's empty-list text on stderr. */
  list<T>(all: readonly T[], cols: readonly Column<T>[], empty: string): void {
    const limit = this.shape.limit;
    const rows = limit !== undefined && all.length > limit ? all.slice(0, limit) : all;
    if (this.json) return this.printJson(withEdgeNames(rows));
    if (rows.length < all.length && this.tty) this.notice(`Showing ${rows.length} of ${all.length}: --limit ${all.length} shows all.`);
    if (rows.length === 0) return this.notice(empty);
    this.stdout.write(renderTable(rows, cols, this.tty));
  }

  /** One object: JSON with --json (with core's `id` and `status` beside the wire's names), else labelled fields. */
  object(value: unknown, fields: ReadonlyArray<readonly [string, string | number | null | undefined]>): void {
    if (this.json) return this.printJson(withEdgeNames(value));
    this.stdout.write(renderFields(fields, this.tty));
  }

  /** The result of an action: JSON with --json, else a one-line notice on stderr. */
  done(value: unknown, message: string): void {
    if (this.json) this.printJson(withEdgeNames(value));
    this.notice(message);
  }

  /** JSON as it is (`portal api` prints the wire's answer untouched); list, object and done add core's edge names. */
  printJson(value: unknown): void {
    const shown = this.shape.fields ? pickFields(value, this.shape.fields) : value;
    this.stdout.write(printableJson(shown, 2) + '\n');
  }

  /** Notices and progress go to stderr, so stdout stays parseable. */
  notice(message: string): void {
    this.stderr.write(printable(message, { multiline: true }) + '\n');
  }
}
