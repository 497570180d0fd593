// gh-style output: --json prints only JSON; a padded table on a TTY; tab-separated lines when piped. Everything
// printed passes core's printable escaping: text from the server cannot drive the terminal it is printed on.
import { printable, printableJson } from '@portal/core';

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

export class Output {
  constructor(
    readonly stdout: OutStream,
    readonly stderr: OutStream,
    readonly json: boolean,
  ) {}

  get tty(): boolean {
    return !!this.stdout.isTTY;
  }

  /** A list: a JSON array with --json, else a table, or SPEC's empty-list text on stderr. */
  list<T>(rows: readonly T[], cols: readonly Column<T>[], empty: string): void {
    if (this.json) return this.printJson(rows);
    if (rows.length === 0) return this.notice(empty);
    this.stdout.write(renderTable(rows, cols, this.tty));
  }

  /** One object: JSON with --json, else labelled fields. */
  object(value: unknown, fields: ReadonlyArray<readonly [string, string | number | null | undefined]>): void {
    if (this.json) return this.printJson(value);
    this.stdout.write(renderFields(fields, this.tty));
  }

  /** The result of an action: JSON with --json, else a one-line notice on stderr. */
  done(value: unknown, message: string): void {
    if (this.json) this.printJson(value);
    this.notice(message);
  }

  printJson(value: unknown): void {
    this.stdout.write(printableJson(value, 2) + '\n');
  }

  /** Notices and progress go to stderr, so stdout stays parseable. */
  notice(message: string): void {
    this.stderr.write(printable(message, { multiline: true }) + '\n');
  }
}
