// A text table for Ink: padded columns, the selected row marked, long cells cut to fit.
import { Box, Text } from 'ink';
import { printable } from '@portal/core';

export interface Col<T> {
  header: string;
  get(row: T): string | number | null | undefined;
  /** Shown in red (e.g. a request's message). */
  danger?: (row: T) => boolean;
  max?: number;
}

/** Server text as one line: controls, line breaks and bidi characters shown as visible escapes (core's printable). */
const cell = (v: string | number | null | undefined) => (v === null || v === undefined || v === '' ? '-' : printable(String(v)));
const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, Math.max(0, n - 1))}…` : s);
const GAP = 2;

/** Column widths that fit `width`: each column's widest cell (up to its max), the widest shrunk first when too wide. */
export function fitWidths(natural: number[], width: number, min = 4): number[] {
  const w = [...natural];
  // The selection marker takes 2 columns; the gaps between columns 2 each.
  const room = Math.max(w.length * min, width - 2 - GAP * (w.length - 1));
  let total = w.reduce((a, b) => a + b, 0);
  while (total > room) {
    const widest = w.indexOf(Math.max(...w));
    if (w[widest] <= min) break;
    w[widest]--;
    total--;
  }
  return w;
}

export function Table<T>({
  rows,
  cols,
  selected,
  keyOf,
  width = 1000,
}: {
  rows: readonly T[];
  cols: readonly Col<T>[];
  selected?: number;
  keyOf(row: T): string;
  /** The columns it may take: cells are cut to fit, so no line wraps. */
  width?: number;
}) {
  // Up to a title's 60 characters when the terminal has room; fitWidths cuts further when it has not.
  const raw = rows.map((r) => cols.map((c) => cut(cell(c.get(r)), c.max ?? 60)));
  const widths = fitWidths(
    cols.map((c, i) => Math.max(c.header.length, ...raw.map((line) => line[i].length))),
    width,
  );
  const cells = raw.map((line) => line.map((v, i) => cut(v, widths[i])));
  const line = (values: string[]) => values.map((v, i) => cut(v, widths[i]).padEnd(widths[i])).join('  ');
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        {'  ' + line(cols.map((c) => c.header))}
      </Text>
      {rows.map((r, ri) => (
        <Text key={keyOf(r)} inverse={ri === selected} wrap="truncate-end">
          {ri === selected ? '› ' : '  '}
          {cols.map((c, ci) => (
            <Text key={ci} color={c.danger?.(r) ? 'red' : undefined}>
              {cells[ri][ci].padEnd(widths[ci])}
              {ci < cols.length - 1 ? '  ' : ''}
            </Text>
          ))}
        </Text>
      ))}
    </Box>
  );
}
