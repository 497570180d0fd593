// A text table for Ink: padded columns, the selected row marked, long cells cut to fit.
import { Box, Text } from 'ink';

export interface Col<T> {
  header: string;
  get(row: T): string | number | null | undefined;
  /** Shown in red (e.g. a request's message). */
  danger?: (row: T) => boolean;
  max?: number;
}

const cell = (v: string | number | null | undefined) => (v === null || v === undefined || v === '' ? '-' : String(v));
const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export function Table<T>({
  rows,
  cols,
  selected,
  keyOf,
}: {
  rows: readonly T[];
  cols: readonly Col<T>[];
  selected?: number;
  keyOf(row: T): string;
}) {
  const cells = rows.map((r) => cols.map((c) => cut(cell(c.get(r)), c.max ?? 30)));
  const widths = cols.map((c, i) => Math.max(c.header.length, ...cells.map((line) => line[i].length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i])).join('  ');
  return (
    <Box flexDirection="column">
      <Text bold>{'  ' + line(cols.map((c) => c.header))}</Text>
      {rows.map((r, ri) => (
        <Text key={keyOf(r)} inverse={ri === selected}>
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
