// A list's columns: what each shows, and the one rule of which columns a table keeps when its card is narrow.
import type { ReactNode } from 'react';
import { CREATED_SORT } from '@portal/core/react';
import { Ellipsis, StatusChip } from '../Cells';
import { Time } from '../Time';

export interface Column<T> {
  id: string;
  label: string;
  /** The value sorted and filtered on; omitted for columns that are only actions. */
  value?: (row: T) => string | number | null | undefined;
  render?: (row: T) => ReactNode;
  align?: 'left' | 'right';
  /** Keeps long content (file lists, messages) readable: the column is at least this wide while it is shown. */
  minWidth?: number;
  /** Keeps a short value (a time) on one line. */
  nowrap?: boolean;
  /** Cuts a long value to one line with an ellipsis and shows it whole in a tooltip (the first column does by default). */
  truncate?: boolean;
  /** Shows the value as a status chip: colour from core's statusTone, and always the state's own word. */
  status?: boolean;
  /**
   * 'low': the first column to give way when the table is wider than its card; its value then folds under the row's
   * name ("Upload: data.json") instead of pushing Actions out of view. The ID column is low by default.
   */
  priority?: 'low';
}

/** The Created column of every list: the time on one line, sorted by the time; a long list searched sorts it on the server. */
export const createdColumn = <T extends { createdAt: number }>(): Column<T> => ({
  id: CREATED_SORT,
  label: 'Created',
  nowrap: true,
  value: (r) => r.createdAt,
  render: (r) => <Time at={r.createdAt} />,
});

// A card or a folded line leaves out a field with nothing in it (an empty message), rather than a label with a blank.
export const isBlank = (v: unknown) => v === null || v === undefined || v === '';

export function cellContent<T>(c: Column<T>, r: T, truncate: boolean): ReactNode {
  if (c.render) return c.render(r);
  const text = String(c.value?.(r) ?? '');
  if (c.status) return <StatusChip state={text} />;
  return truncate ? <Ellipsis text={text} /> : text;
}

/** A column that says something for some row shown: a column blank in every row (an empty Message) is left out. */
export const saysSomething = <T,>(c: Column<T>, rows: readonly T[]): boolean =>
  !c.value || rows.length === 0 || rows.some((r) => !isBlank(c.value!(r)));

/**
 * The columns a wide table shows and those it folds under the name, given how many low-priority columns must give way
 * (`folded`, counted from the last): the first column always stays, and so does every column not marked low.
 */
export function columnPlan<T>(
  columns: readonly Column<T>[],
  rows: readonly T[],
  folded: number,
): { shown: Column<T>[]; folded: Column<T>[] } {
  const [first, ...rest] = columns;
  if (!first) return { shown: [], folded: [] };
  const useful = rest.filter((c) => saysSomething(c, rows));
  const low = useful.filter((c) => c.priority === 'low');
  const away = new Set(low.slice(Math.max(0, low.length - folded)));
  return { shown: [first, ...useful.filter((c) => !away.has(c))], folded: useful.filter((c) => away.has(c)) };
}

/** How many columns could fold. */
export const foldable = <T,>(columns: readonly Column<T>[]): number => columns.slice(1).filter((c) => c.priority === 'low').length;
