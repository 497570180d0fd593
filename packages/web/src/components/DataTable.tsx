// A list with SPEC's columns, its empty-list text, a filter box and sortable columns.
import { useMemo, useState, type ReactNode } from 'react';
import {
  Alert,
  Box,
  Button,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TableSortLabel,
  TextField,
  Typography,
  useMediaQuery,
} from '@mui/material';
import { useTheme } from '@mui/material/styles';
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
  /** Keeps a short value (a time) on one line. */
  nowrap?: boolean;
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
  /** Shown instead of the empty text when the list could not be loaded (SPEC's message where it names one). */
  error?: string | null;
  onRetry?: () => void;
}

// A card leaves out a field with nothing in it (an empty message), rather than a label with a blank beside it.
const isBlank = (v: unknown) => v === null || v === undefined || v === '';

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: 'base' });
}

export function DataTable<T>({
  label,
  rows,
  columns,
  rowKey,
  empty,
  loading,
  actions,
  initialSort,
  filter = true,
  error,
  onRetry,
}: Props<T>) {
  const theme = useTheme();
  // On a phone a wide table would hide its actions off to the side: each row becomes a card instead.
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<{ id: string; dir: 'asc' | 'desc' } | null>(initialSort ?? null);

  const shown = useMemo(() => {
    let list = rows ?? [];
    const q = query.trim().toLowerCase();
    if (q)
      list = list.filter((r) =>
        columns.some(
          (c) =>
            c.value &&
            String(c.value(r) ?? '')
              .toLowerCase()
              .includes(q),
        ),
      );
    const col = sort && columns.find((c) => c.id === sort.id);
    if (sort && col?.value) {
      const v = col.value;
      list = [...list].sort((a, b) => compare(v(a), v(b)) * (sort.dir === 'asc' ? 1 : -1));
    }
    return list;
  }, [rows, query, sort, columns]);

  const toggle = (id: string) => setSort((s) => (s?.id === id ? { id, dir: s.dir === 'asc' ? 'desc' : 'asc' } : { id, dir: 'asc' }));

  if (rows === undefined && loading) return <Loading label={`Loading ${label}`} />;
  if (rows === undefined && error) {
    return (
      <Alert
        severity="error"
        role="alert"
        action={
          onRetry && (
            <Button color="inherit" size="small" onClick={onRetry}>
              Retry
            </Button>
          )
        }
        sx={{ my: 1 }}
      >
        {error}
      </Alert>
    );
  }
  const total = rows?.length ?? 0;
  const sortable = columns.filter((c) => c.value);

  return (
    <Box>
      {total > 0 && (filter || phone) && (
        <Stack direction="row" sx={{ mb: 1.5, gap: 1, flexWrap: 'wrap' }}>
          {filter && (
            <TextField
              label={`Filter ${label.toLowerCase()}`}
              size="small"
              type="search"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              sx={{ flex: { xs: '1 1 160px', sm: '0 0 320px' } }}
            />
          )}
          {phone && sortable.length > 0 && (
            <TextField
              select
              label="Sort by"
              size="small"
              value={sort ? `${sort.id}:${sort.dir}` : ''}
              onChange={(e) => {
                const [id, dir] = e.target.value.split(':');
                setSort(id ? { id, dir: dir === 'desc' ? 'desc' : 'asc' } : null);
              }}
              slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
              sx={{ flex: '1 1 140px' }}
            >
              <option value="">As listed</option>
              {sortable.flatMap((c) => [
                <option key={`${c.id}:asc`} value={`${c.id}:asc`}>
                  {c.label} ↑
                </option>,
                <option key={`${c.id}:desc`} value={`${c.id}:desc`}>
                  {c.label} ↓
                </option>,
              ])}
            </TextField>
          )}
        </Stack>
      )}
      {total === 0 ? (
        <Typography sx={{ py: 3, textAlign: 'center', color: 'text.secondary' }} role="status">
          {empty}
        </Typography>
      ) : phone ? (
        <Box component="ul" aria-label={label} sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1 }}>
          {shown.map((r) => {
            const [head, ...rest] = columns;
            return (
              <Box
                component="li"
                key={rowKey(r)}
                sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 1.5, overflowWrap: 'anywhere' }}
              >
                {head && (
                  <Typography component="div" sx={{ fontWeight: 600, mb: 0.5 }}>
                    {head.render ? head.render(r) : String(head.value?.(r) ?? '')}
                  </Typography>
                )}
                <Box
                  component="dl"
                  sx={{ m: 0, display: 'grid', gridTemplateColumns: 'minmax(84px, auto) 1fr', columnGap: 1.5, rowGap: 0.5 }}
                >
                  {rest
                    .filter((c) => !isBlank(c.value?.(r)) || (!c.value && c.render))
                    .map((c) => (
                      <Box key={c.id} sx={{ display: 'contents' }}>
                        <Typography component="dt" variant="body2" color="text.secondary">
                          {c.label}
                        </Typography>
                        <Typography component="dd" variant="body2" sx={{ m: 0, minWidth: 0 }}>
                          {c.render ? c.render(r) : String(c.value?.(r) ?? '')}
                        </Typography>
                      </Box>
                    ))}
                </Box>
                {actions && <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1 }}>{actions(r)}</Box>}
              </Box>
            );
          })}
          {shown.length === 0 && (
            <Typography component="li" sx={{ textAlign: 'center', color: 'text.secondary', py: 2 }}>
              Nothing matches the filter.
            </Typography>
          )}
        </Box>
      ) : (
        <TableContainer sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={`${label} table`}>
          <Table size="small" aria-label={label}>
            <TableHead>
              <TableRow>
                {columns.map((c) => (
                  <TableCell key={c.id} align={c.align} sortDirection={sort?.id === c.id ? sort.dir : false}>
                    {c.value ? (
                      <TableSortLabel
                        active={sort?.id === c.id}
                        direction={sort?.id === c.id ? sort.dir : 'asc'}
                        onClick={() => toggle(c.id)}
                      >
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
                    <TableCell
                      key={c.id}
                      align={c.align}
                      sx={{
                        overflowWrap: 'break-word',
                        verticalAlign: 'middle',
                        minWidth: c.minWidth,
                        whiteSpace: c.nowrap ? 'nowrap' : undefined,
                      }}
                    >
                      {c.render ? c.render(r) : String(c.value?.(r) ?? '')}
                    </TableCell>
                  ))}
                  {actions && (
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap', verticalAlign: 'middle' }}>
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
