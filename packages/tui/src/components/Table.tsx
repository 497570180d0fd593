// A text table for Ink: padded columns, the selected row marked, long cells cut to fit. When the width is short,
// ids and times give way first (short ids, relative times), then other columns; names, states and emails last.
import { Box, Text } from 'ink';
import { printable, relativeTime } from '@portal/core';

export interface Col<T> {
  header: string;
  get(row: T): string | number | null | undefined;
  /** Shown in red (e.g. a request's message). */
  danger?: (row: T) => boolean;
  max?: number;
  /** A name, state or email: what the row is read by, so it keeps its width longest. */
  keep?: boolean;
  /** The time the cell shows (epoch seconds): shown relative ('3 min ago') when the width is short. */
  at?: (row: T) => number | null | undefined;
  /** An id: shown by its first characters when the width is short. */
  id?: boolean;
}

/** How many characters of an id a short table shows. */
export const SHORT_ID = 8;

/** Server text as one line: controls, line breaks and bidi characters shown as visible escapes (core's printable). */
const cell = (v: string | number | null | undefined) => (v === null || v === undefined || v === '' ? '-' : printable(String(v)));
const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, Math.max(0, n - 1))}…` : s);
const GAP = 2;
/** The gap between columns when the width is short: one space gives a name three more characters. */
const TIGHT_GAP = 1;

/** The room a table's cells have in `width` columns: the selection marker takes 2, the gaps `gap` each. */
const roomFor = (columns: number, width: number, min: number, gap = GAP) => Math.max(columns * min, width - 2 - gap * (columns - 1));

/**
 * Column widths that fit `width`: each column's widest cell (up to its max); when too wide, the widest column not
 * marked `keep` shrinks first, and the kept ones (names, states, emails) only when nothing else can.
 */
export function fitWidths(natural: number[], width: number, min = 4, keep: readonly boolean[] = [], gap = GAP): number[] {
  const w = [...natural];
  const room = roomFor(w.length, width, min, gap);
  let total = w.reduce((a, b) => a + b, 0);
  for (const kept of [false, true]) {
    while (total > room) {
      let widest = -1;
      w.forEach((v, i) => {
        if (!!keep[i] === kept && v > min && (widest < 0 || v > w[widest])) widest = i;
      });
      if (widest < 0) break;
      w[widest]--;
      total--;
    }
  }
  return w;
}

const cellOf = <T,>(c: Col<T>, r: T, short: boolean): string => {
  if (short && c.at) return relativeTime(c.at(r) ?? Number.NaN);
  const v = cell(c.get(r));
  return short && c.id && v.length > SHORT_ID ? v.slice(0, SHORT_ID) : v;
};

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
  const layout = (shown: readonly Col<T>[]) => {
    const cellsOf = (short: boolean) => rows.map((r) => shown.map((c) => cut(cellOf(c, r, short), c.max ?? 60)));
    const naturalOf = (lines: string[][]) => shown.map((c, i) => Math.max(c.header.length, ...lines.map((line) => line[i].length)));
    let raw = cellsOf(false);
    let natural = naturalOf(raw);
    const tight = natural.reduce((a, b) => a + b, 0) > roomFor(shown.length, width, 4);
    if (tight) {
      raw = cellsOf(true);
      natural = naturalOf(raw);
    }
    const gap = tight ? TIGHT_GAP : GAP;
    const widths = fitWidths(
      natural,
      width,
      4,
      shown.map((c) => !!c.keep),
      gap,
    );
    const cutKept = shown.some((c, i) => c.keep && widths[i] < natural[i]);
    return { shown, raw, widths, gap, cutKept };
  };
  // A name, state or email that would still be cut: the last columns not kept are left out, as k9s does (the details
  // screen shows everything).
  let fitted = layout(cols);
  while (fitted.cutKept) {
    const drop = fitted.shown.findLastIndex((c) => !c.keep);
    if (drop < 0) break;
    fitted = layout(fitted.shown.filter((_, i) => i !== drop));
  }
  const { shown, raw, widths } = fitted;
  const space = ' '.repeat(fitted.gap);
  const cells = raw.map((line) => line.map((v, i) => cut(v, widths[i])));
  const line = (values: string[]) => values.map((v, i) => cut(v, widths[i]).padEnd(widths[i])).join(space);
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        {'  ' + line(shown.map((c) => c.header))}
      </Text>
      {rows.map((r, ri) => (
        <Text key={keyOf(r)} inverse={ri === selected} wrap="truncate-end">
          {ri === selected ? '› ' : '  '}
          {shown.map((c, ci) => (
            <Text key={ci} color={c.danger?.(r) ? 'red' : undefined}>
              {cells[ri][ci].padEnd(widths[ci])}
              {ci < shown.length - 1 ? space : ''}
            </Text>
          ))}
        </Text>
      ))}
    </Box>
  );
}
