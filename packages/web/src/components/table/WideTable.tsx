// A list on a laptop: a table that fits its card. Names take the room the other columns leave and are cut with their
// whole text in a tooltip; a column blank in every row is left out; while the table is still wider than its card, the
// low-priority columns fold under the row's name, one at a time from the last, so Actions stay in view.
import { useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Box, Checkbox, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TableSortLabel, Typography } from '@mui/material';
import { cellContent, columnPlan, foldable, isBlank, type Column } from './columns';
import type { Sort } from './listView';
import type { Selection } from './selection';

/** Folds one more column while the table is wider than its card; unfolds when the card grows. */
function useFolding(count: number, deps: unknown[]) {
  const box = useRef<HTMLDivElement>(null);
  const [folded, setFolded] = useState(0);
  const foldedAt = useRef(0);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el || folded >= count) return;
    if (el.scrollWidth > el.clientWidth) {
      foldedAt.current = el.clientWidth;
      setFolded(folded + 1);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- measured again whenever what is shown changes
  }, [folded, count, ...deps]);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const seen = new ResizeObserver(() => {
      // Wider than when a column last folded: start again from every column, and fold what still does not fit.
      if (el.clientWidth > foldedAt.current) setFolded(0);
      else if (el.scrollWidth > el.clientWidth) setFolded((f) => Math.min(count, f + 1));
    });
    seen.observe(el);
    return () => seen.disconnect();
  }, [count]);
  return { box, folded };
}

export function WideTable<T>(props: {
  label: string;
  rows: readonly T[];
  columns: readonly Column<T>[];
  rowKey: (row: T) => string;
  sort: Sort | null;
  onSort: (id: string) => void;
  selection?: Selection;
  actions?: (row: T) => ReactNode;
  noMatch: string | null;
}) {
  const { label, rows, columns, rowKey, sort, onSort, selection, actions, noMatch } = props;
  const { box, folded } = useFolding(foldable(columns), [rows, columns]);
  const plan = useMemo(() => columnPlan(columns, rows, folded), [columns, rows, folded]);
  const cut = plan.shown.filter((c) => c.truncate);
  // The name takes twice the share of any other cut column.
  const share = (c: Column<T>) => `${Math.floor((100 * (c === plan.shown[0] ? 2 : 1)) / Math.max(1, cut.length + 1))}%`;
  const span = plan.shown.length + (actions ? 1 : 0) + (selection ? 1 : 0);
  const foldedLines = (r: T) => {
    const lines = plan.folded.filter((c) => !isBlank(c.value?.(r)) || (!c.value && c.render));
    if (lines.length === 0) return null;
    return (
      <Box data-folded="" sx={{ mt: 0.25, display: 'grid', gap: 0.25 }}>
        {lines.map((c) => (
          <Typography key={c.id} component="div" variant="body2" color="text.secondary" sx={{ display: 'flex', gap: 0.5, minWidth: 0 }}>
            <span>{c.label}:</span>
            <Box component="span" sx={{ minWidth: 0, flex: 1 }}>
              {cellContent(c, r, true)}
            </Box>
          </Typography>
        ))}
      </Box>
    );
  };
  return (
    <TableContainer ref={box} sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={`${label} table`}>
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            {selection && (
              <TableCell padding="checkbox">
                <Checkbox
                  size="small"
                  checked={selection.allChosen}
                  indeterminate={selection.someChosen}
                  onChange={selection.pickAll}
                  slotProps={{ input: { 'aria-label': `Select all ${label.toLowerCase()} on this page` } }}
                />
              </TableCell>
            )}
            {plan.shown.map((c) => (
              <TableCell key={c.id} align={c.align} sortDirection={sort?.id === c.id ? sort.dir : false}>
                {c.value ? (
                  <TableSortLabel active={sort?.id === c.id} direction={sort?.id === c.id ? sort.dir : 'asc'} onClick={() => onSort(c.id)}>
                    {c.label}
                  </TableSortLabel>
                ) : (
                  c.label
                )}
              </TableCell>
            ))}
            {actions && <TableCell align="right">Actions</TableCell>}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((r) => (
            <TableRow key={rowKey(r)} hover selected={selection?.selected.has(rowKey(r))}>
              {selection && <TableCell padding="checkbox">{selection.checkbox(rowKey(r))}</TableCell>}
              {plan.shown.map((c, i) => (
                <TableCell
                  key={c.id}
                  align={c.align}
                  // A name cell holding folded columns is still called by the name alone (the folded lines follow it).
                  aria-label={i === 0 && plan.folded.length > 0 && c.value ? String(c.value(r) ?? '') : undefined}
                  sx={{
                    overflowWrap: 'break-word',
                    verticalAlign: 'middle',
                    minWidth: c.minWidth ?? (c.truncate ? 120 : undefined),
                    // A cut column takes the room the others leave (max-width 0 with a share of the width), so every
                    // column fits however long the names; the whole name is in the tooltip.
                    maxWidth: c.truncate ? 0 : undefined,
                    width: c.truncate ? share(c) : undefined,
                    whiteSpace: c.nowrap ? 'nowrap' : undefined,
                  }}
                >
                  {cellContent(c, r, !!c.truncate)}
                  {i === 0 && foldedLines(r)}
                </TableCell>
              ))}
              {actions && (
                <TableCell align="right" sx={{ whiteSpace: 'nowrap', verticalAlign: 'middle', width: '1%' }}>
                  {actions(r)}
                </TableCell>
              )}
            </TableRow>
          ))}
          {noMatch && (
            <TableRow>
              <TableCell colSpan={span} sx={{ textAlign: 'center', color: 'text.secondary' }}>
                {noMatch}
              </TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
