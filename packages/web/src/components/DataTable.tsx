// A list with SPEC's columns: filter box, sortable columns, pages of 25 ("1-25 of N"), an ID column with copy, status
// chips, long names cut with an ellipsis (full text in a tooltip), actions pinned in view, skeleton rows while loading,
// and an empty state that says what the list is for and offers the next step.
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import {
  Alert,
  Box,
  Button,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  TableSortLabel,
  TextField,
  Typography,
  useMediaQuery,
} from '@mui/material';
import { useTheme } from '@mui/material/styles';
import { Ellipsis, IdCell, StatusChip } from './Cells';

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
  /** Cuts a long value to one line with an ellipsis and shows it whole in a tooltip (the first column does by default). */
  truncate?: boolean;
  /** Shows the value as a status chip: colour from core's statusTone, and always the state's own word. */
  status?: boolean;
}

export const PAGE_SIZE = 25;

interface Props<T> {
  /** Names the table for screen readers, e.g. "Projects". */
  label: string;
  rows: T[] | undefined;
  columns: Column<T>[];
  rowKey: (row: T) => string;
  /** The row's id, shown in an ID column (after the first) with a copy button: the Python client needs ids. */
  idOf?: (row: T) => string;
  /** The name a row is called by in the ID column's button labels (defaults to the first column's value). */
  nameOf?: (row: T) => string;
  empty: string;
  /** What the list is for, shown under the empty text. */
  emptyHint?: string;
  /** The next step from an empty list (a button). */
  emptyAction?: ReactNode;
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

/** "1-25 of 55": SPEC's hyphen rather than MUI's en dash. */
export const pageLabel = ({ from, to, count }: { from: number; to: number; count: number }) => `${from}-${to} of ${count}`;

function cellContent<T>(c: Column<T>, r: T, truncate: boolean): ReactNode {
  if (c.render) return c.render(r);
  const text = String(c.value?.(r) ?? '');
  if (c.status) return <StatusChip state={text} />;
  return truncate ? <Ellipsis text={text} /> : text;
}

export function DataTable<T>({
  label,
  rows,
  columns: given,
  rowKey,
  idOf,
  nameOf,
  empty,
  emptyHint,
  emptyAction,
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
  const [page, setPage] = useState(0);

  const columns = useMemo(() => {
    const [first, ...rest] = given;
    const head = first ? [{ ...first, truncate: first.truncate ?? true }] : [];
    if (!idOf || !first) return [...head, ...rest];
    const name = nameOf ?? ((r: T) => String(first.value?.(r) ?? ''));
    const idColumn: Column<T> = { id: 'id', label: 'ID', value: idOf, render: (r) => <IdCell id={idOf(r)} name={name(r)} /> };
    return [...head, idColumn, ...rest];
  }, [given, idOf, nameOf]);

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

  // A filter or a shorter list (a removal) may leave the page past the end: back to the last page there is.
  const lastPage = Math.max(0, Math.ceil(shown.length / PAGE_SIZE) - 1);
  useEffect(() => {
    if (page > lastPage) setPage(lastPage);
  }, [page, lastPage]);
  const visible = shown.slice(page * PAGE_SIZE, page * PAGE_SIZE + PAGE_SIZE);

  const toggle = (id: string) => setSort((s) => (s?.id === id ? { id, dir: s.dir === 'asc' ? 'desc' : 'asc' } : { id, dir: 'asc' }));

  if (rows === undefined && loading) return <SkeletonRows label={label} columns={columns.length + (actions ? 1 : 0)} />;
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
  const pager = shown.length > PAGE_SIZE && (
    <TablePagination
      component="div"
      count={shown.length}
      page={Math.min(page, lastPage)}
      onPageChange={(_e, p) => setPage(p)}
      rowsPerPage={PAGE_SIZE}
      rowsPerPageOptions={[]}
      labelDisplayedRows={pageLabel}
      aria-label={`${label} pages`}
    />
  );

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
              onChange={(e) => {
                setQuery(e.target.value);
                setPage(0);
              }}
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
        <Box
          role="status"
          sx={{ py: 3, px: 2, textAlign: 'center', border: 1, borderColor: 'divider', borderStyle: 'dashed', borderRadius: 2 }}
        >
          <Typography sx={{ fontWeight: 600 }}>{empty}</Typography>
          {emptyHint && (
            <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5, maxWidth: 520, mx: 'auto' }}>
              {emptyHint}
            </Typography>
          )}
          {emptyAction && <Box sx={{ mt: 1.5, display: 'flex', gap: 1, justifyContent: 'center', flexWrap: 'wrap' }}>{emptyAction}</Box>}
        </Box>
      ) : phone ? (
        <Box component="ul" aria-label={label} sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1 }}>
          {visible.map((r) => {
            const [head, ...rest] = columns;
            return (
              <Box component="li" key={rowKey(r)} sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 1.5, minWidth: 0 }}>
                {head && (
                  <Typography component="div" sx={{ fontWeight: 600, mb: 0.5, minWidth: 0 }}>
                    {cellContent(head, r, true)}
                  </Typography>
                )}
                <Box
                  component="dl"
                  sx={{ m: 0, display: 'grid', gridTemplateColumns: 'minmax(84px, auto) minmax(0, 1fr)', columnGap: 1.5, rowGap: 0.5 }}
                >
                  {rest
                    .filter((c) => !isBlank(c.value?.(r)) || (!c.value && c.render))
                    .map((c) => (
                      <Box key={c.id} sx={{ display: 'contents' }}>
                        <Typography component="dt" variant="body2" color="text.secondary">
                          {c.label}
                        </Typography>
                        <Typography component="dd" variant="body2" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere' }}>
                          {cellContent(c, r, !!c.truncate)}
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
                {actions && (
                  <TableCell align="right" sx={PINNED}>
                    Actions
                  </TableCell>
                )}
              </TableRow>
            </TableHead>
            <TableBody>
              {visible.map((r) => (
                <TableRow key={rowKey(r)} hover>
                  {columns.map((c) => (
                    <TableCell
                      key={c.id}
                      align={c.align}
                      sx={{
                        overflowWrap: 'break-word',
                        verticalAlign: 'middle',
                        minWidth: c.minWidth,
                        maxWidth: c.truncate ? 320 : undefined,
                        whiteSpace: c.nowrap ? 'nowrap' : undefined,
                      }}
                    >
                      {cellContent(c, r, !!c.truncate)}
                    </TableCell>
                  ))}
                  {actions && (
                    <TableCell align="right" sx={{ ...PINNED, whiteSpace: 'nowrap', verticalAlign: 'middle' }}>
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
      {pager}
    </Box>
  );
}

/** The actions column stays at the right edge of the visible table however wide the other columns are. */
const PINNED = {
  position: 'sticky',
  right: 0,
  zIndex: 1,
  bgcolor: 'background.paper',
  boxShadow: (t: { palette: { divider: string } }) => `-1px 0 0 ${t.palette.divider}`,
} as const;

/** Placeholder rows in the list's shape while it first loads (no layout jump when the rows arrive). */
function SkeletonRows({ label, columns }: { label: string; columns: number }) {
  return (
    <Box role="status" aria-label={`Loading ${label}`} aria-busy="true" sx={{ display: 'grid', gap: 1, py: 1 }}>
      {Array.from({ length: 4 }, (_, i) => (
        <Stack key={i} direction="row" spacing={2}>
          {Array.from({ length: Math.min(columns, 5) }, (_, j) => (
            <Skeleton key={j} variant="text" sx={{ flex: j === 0 ? 2 : 1 }} height={28} />
          ))}
        </Stack>
      ))}
    </Box>
  );
}
