// A list with SPEC's columns, its empty-list text, a filter box and sortable columns.
import { useMemo, useState, type ReactNode } from 'react';
import {
  Box, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TableSortLabel, TextField, Typography,
} from '@mui/material';
import { Loading } from './Loading';

export interface Column<T> {
  id: string;
  label: string;
  /** The value sorted and filtered on; omitted for columns that are only actions. */
  value?: (row: T) => string | number | null | undefined;
  render?: (row: T) => ReactNode;
  align?: 'left' | 'right';
  /** Keeps long content (file lists, messages) readable on narrow screens; the table scrolls instead. */
  minWidth?: number;
}

interface Props<T> {
  /** Names the table for screen readers, e.g. "Projects". */
  label: string;
  rows: T[] | undefined;
  columns: Column<T>[];
  rowKey: (row: T) => string;
  empty: string;
  loading?: boolean;
  actions?: (row: T) => ReactNode;
  initialSort?: { id: string; dir: 'asc' | 'desc' };
  filter?: boolean;
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: 'base' });
}

export function DataTable<T>({ label, rows, columns, rowKey, empty, loading, actions, initialSort, filter = true }: Props<T>) {
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<{ id: string; dir: 'asc' | 'desc' } | null>(initialSort ?? null);

  const shown = useMemo(() => {
    let list = rows ?? [];
    const q = query.trim().toLowerCase();
    if (q) list = list.filter((r) => columns.some((c) => c.value && String(c.value(r) ?? '').toLowerCase().includes(q)));
    const col = sort && columns.find((c) => c.id === sort.id);
    if (sort && col?.value) {
      const v = col.value;
      list = [...list].sort((a, b) => compare(v(a), v(b)) * (sort.dir === 'asc' ? 1 : -1));
    }
    return list;
  }, [rows, query, sort, columns]);

  const toggle = (id: string) =>
    setSort((s) => (s?.id === id ? { id, dir: s.dir === 'asc' ? 'desc' : 'asc' } : { id, dir: 'asc' }));

  if (rows === undefined && loading) return <Loading label={`Loading ${label}`} />;
  const total = rows?.length ?? 0;

  return (
    <Box>
      {filter && total > 0 && (
        <TextField
          label={`Filter ${label.toLowerCase()}`}
          size="small"
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          sx={{ mb: 1.5, width: { xs: '100%', sm: 320 } }}
        />
      )}
      {total === 0 ? (
        <Typography sx={{ py: 3, textAlign: 'center', color: 'text.secondary' }} role="status">
          {empty}
        </Typography>
      ) : (
        <TableContainer sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={`${label} table`}>
          <Table size="small" aria-label={label}>
            <TableHead>
              <TableRow>
                {columns.map((c) => (
                  <TableCell key={c.id} align={c.align} sortDirection={sort?.id === c.id ? sort.dir : false}>
                    {c.value ? (
                      <TableSortLabel active={sort?.id === c.id} direction={sort?.id === c.id ? sort.dir : 'asc'} onClick={() => toggle(c.id)}>
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
              {shown.map((r) => (
                <TableRow key={rowKey(r)} hover>
                  {columns.map((c) => (
                    <TableCell key={c.id} align={c.align} sx={{ overflowWrap: 'break-word', verticalAlign: 'top', minWidth: c.minWidth }}>
                      {c.render ? c.render(r) : String(c.value?.(r) ?? '')}
                    </TableCell>
                  ))}
                  {actions && (
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap', verticalAlign: 'top' }}>
                      {actions(r)}
                    </TableCell>
                  )}
                </TableRow>
              ))}
              {shown.length === 0 && (
                <TableRow>
                  <TableCell colSpan={columns.length + (actions ? 1 : 0)} sx={{ textAlign: 'center', color: 'text.secondary' }}>
                    Nothing matches the filter.
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Box>
  );
}
