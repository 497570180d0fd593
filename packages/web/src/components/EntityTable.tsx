// The one list of the portal, used by every list page: SPEC's columns, filter box, sortable columns, pages of 25
// ("1-25 of N"), filter, sort and page kept in the URL (Back and reload restore them), an ID column with copy, status
// chips, long names cut with an ellipsis (full text in a tooltip), row actions in their own column that never covers
// another, rows selected with checkboxes (Shift+click for a range) and removed together with one Undo, skeleton rows
// while loading, and an empty state that says what the list is for and offers the next step. On phones rows are cards.
// A long list (core's useListPaging) pages on the server instead: the table shows the server's page of 25 with
// Next and Previous. On the project list the filter box then searches the names on the server and the Created sort
// is the server's order; on the others the filter and sort apply to the page shown.
import { useEffect, useMemo, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
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
import { ConfirmDialog } from './Dialogs';
import { useUrlParams } from '../lib/useUrlParams';
import { CREATED_SORT, SEARCH_NO_MATCH, orderOfSort, useListPaging, type ListPaging, type ViewStore } from '@portal/core/react';

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
  /**
   * Names this list's filter, sort and page in the query string when a page shows two lists ("invites" gives
   * `invites.q`, `invites.sort`, `invites.page`); the page's main list leaves it out (`q`, `sort`, `page`).
   */
  urlKey?: string;
  /**
   * Offers a checkbox on each row and "Remove selected" for them together (core's removeMany: one call per row, one
   * notice, one Undo for all). `noun` names one row in the confirmation ("project").
   */
  removeMany?: { noun: string; run: (ids: string[]) => Promise<string | null> };
  /**
   * The list's paging (useTablePaging, given to its list hook too) and the `next` of its last answer: once the list
   * is long, `rows` is the server's page and Next and Previous walk the pages.
   */
  paging?: { of: ListPaging; next: string | null | undefined };
}

type Sort = { id: string; dir: 'asc' | 'desc' };

/** `name` sorts up, `-name` down. */
const readSort = (v: string | null): Sort | null =>
  v ? (v.startsWith('-') ? { id: v.slice(1), dir: 'desc' } : { id: v, dir: 'asc' }) : null;
const writeSort = (s: Sort) => (s.dir === 'desc' ? `-${s.id}` : s.id);

/**
 * A list's filter, sort and page in the query string: a page or sort change is a step Back returns from, typing in
 * the filter replaces the entry (Back does not replay each letter). Defaults are left out of the URL.
 */
function useListUrlState(key: string | undefined, initialSort: Sort | undefined) {
  const { params, set } = useUrlParams();
  const name = (n: string) => (key ? `${key}.${n}` : n);
  const query = params.get(name('q')) ?? '';
  const sort = readSort(params.get(name('sort'))) ?? initialSort ?? null;
  const page = Math.max(0, (Number.parseInt(params.get(name('page')) ?? '1', 10) || 1) - 1);
  const update = (changes: Record<string, string | null>, replace: boolean) =>
    set(Object.fromEntries(Object.entries(changes).map(([k, v]) => [name(k), v])), replace);
  return {
    query,
    sort,
    page,
    setQuery: (q: string) => update({ q, page: null }, true),
    setSort: (s: Sort | null) =>
      update(
        { sort: s && !(initialSort && s.id === initialSort.id && s.dir === initialSort.dir) ? writeSort(s) : null, page: null },
        false,
      ),
    setPage: (p: number, replace = false) => update({ page: p > 0 ? String(p + 1) : null }, replace),
  };
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

/** "1-25 of 55": SPEC's hyphen rather than MUI's en dash; a long list's page before the last says "of more than 50". */
export const pageLabel = ({ from, to, count }: { from: number; to: number; count: number }) =>
  `${from}-${to} of ${count === -1 ? `more than ${to}` : count}`;

/**
 * A list page's paging for its table and its list hook (core's useListPaging, pages of PAGE_SIZE): the cursors of
 * the pages walked are kept in the URL (`after`, or `{urlKey}.after`), so Back, reload and a link return to the page.
 * `searched`: the list's server call searches and orders (the project list), so a long one is searched by the filter
 * box (`q`) and ordered by the Created sort (`sort`), both in the URL as they are for a whole list.
 */
export function useTablePaging({ urlKey, searched = false }: { urlKey?: string; searched?: boolean } = {}): ListPaging {
  const { params, set } = useUrlParams();
  const key = (n: string) => (urlKey ? `${urlKey}.${n}` : n);
  const raw = params.get(key('after'));
  const trail = useMemo(() => (raw ? raw.split(',') : []), [raw]);
  const store = useMemo(
    () => ({ trail, setTrail: (t: string[]) => set({ [key('after')]: t.join(',') || null }, false) }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- key is a new closure each render; urlKey says when
    [trail, set, urlKey],
  );
  // A long list searched on the server: the filter box's text and the Created sort are the table's own, in the URL.
  const search = params.get(key('q')) ?? '';
  const order = orderOfSort(readSort(params.get(key('sort'))));
  const view = useMemo<ViewStore>(
    () => ({
      search,
      order,
      setSearch: (q) => set({ [key('q')]: q, [key('page')]: null }, true),
      setOrder: (o) =>
        set({ [key('sort')]: o === 'oldest' ? writeSort({ id: CREATED_SORT, dir: 'asc' }) : null, [key('page')]: null }, false),
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- key is a new closure each render; urlKey says when
    [search, order, set, urlKey],
  );
  return useListPaging(PAGE_SIZE, { trail: store, view, searched });
}

function cellContent<T>(c: Column<T>, r: T, truncate: boolean): ReactNode {
  if (c.render) return c.render(r);
  const text = String(c.value?.(r) ?? '');
  if (c.status) return <StatusChip state={text} />;
  return truncate ? <Ellipsis text={text} /> : text;
}

export function EntityTable<T>({
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
  urlKey,
  removeMany,
  paging,
}: Props<T>) {
  const theme = useTheme();
  // On a phone a wide table would hide its actions off to the side: each row becomes a card instead.
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  // A long list comes in the server's order: a sort the user picks applies to the page shown. A long list the server
  // searches opens newest first as a whole one does, and its filter box is the server's search.
  const long = !!paging?.of.long;
  const searched = long && !!paging?.of.searched;
  const { query, setQuery, sort, setSort, page, setPage } = useListUrlState(urlKey, long && !searched ? undefined : initialSort);
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const [confirming, setConfirming] = useState(false);
  const anchor = useRef<string | null>(null);

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
    const q = searched ? '' : query.trim().toLowerCase();
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
  }, [rows, query, sort, columns, searched]);

  // A filter or a shorter list (a removal) may leave the page past the end: back to the last page there is.
  const lastPage = Math.max(0, Math.ceil(shown.length / PAGE_SIZE) - 1);
  const settled = rows !== undefined && !long;
  useEffect(() => {
    if (settled && page > lastPage) setPage(lastPage, true);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- setPage is a new closure each render; page and lastPage say when
  }, [settled, page, lastPage]);
  const visible = long ? shown : shown.slice(page * PAGE_SIZE, page * PAGE_SIZE + PAGE_SIZE);
  const cutShare = `${Math.floor(100 / Math.max(1, columns.filter((c) => c.truncate).length))}%`;

  // A selection keeps only rows still in the list (a removal or a refresh drops the others).
  const present = useMemo(() => new Set((rows ?? []).map(rowKey)), [rows, rowKey]);
  const chosen = [...selected].filter((k) => present.has(k));
  const visibleKeys = visible.map(rowKey);
  const allChosen = visibleKeys.length > 0 && visibleKeys.every((k) => selected.has(k));

  /** A click picks one row; Shift+click picks every row between it and the last one clicked, as a file manager does. */
  const pick = (key: string, e: MouseEvent | { shiftKey: boolean }) => {
    setSelected((prev) => {
      const next = new Set(prev);
      const on = !prev.has(key);
      const from = anchor.current ? visibleKeys.indexOf(anchor.current) : -1;
      const to = visibleKeys.indexOf(key);
      const range = e.shiftKey && from >= 0 && to >= 0 ? visibleKeys.slice(Math.min(from, to), Math.max(from, to) + 1) : [key];
      for (const k of range) {
        if (on) next.add(k);
        else next.delete(k);
      }
      return next;
    });
    anchor.current = key;
  };
  const pickAll = () =>
    setSelected((prev) => {
      const next = new Set(prev);
      for (const k of visibleKeys) {
        if (allChosen) next.delete(k);
        else next.add(k);
      }
      return next;
    });
  const nameOfKey = (key: string) => {
    const r = (rows ?? []).find((x) => rowKey(x) === key);
    const first = columns[0];
    return r ? (nameOf?.(r) ?? String(first?.value?.(r) ?? key)) : key;
  };
  const checkbox = (r: T) => {
    const key = rowKey(r);
    return (
      <Checkbox
        size="small"
        checked={selected.has(key)}
        onClick={(e) => pick(key, e)}
        slotProps={{ input: { 'aria-label': `Select ${nameOfKey(key)}` } }}
        sx={{ p: 0.5 }}
      />
    );
  };

  const toggle = (id: string) => setSort(sort?.id === id ? { id, dir: sort.dir === 'asc' ? 'desc' : 'asc' } : { id, dir: 'asc' });

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
  const pager = long ? (
    <ServerPager label={label} paging={paging!} shown={rows?.length ?? 0} />
  ) : (
    shown.length > PAGE_SIZE && (
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
    )
  );

  const noun = removeMany?.noun ?? '';
  const bulk = removeMany && chosen.length > 0 && (
    <Stack
      direction="row"
      role="region"
      aria-label={`Selected ${label.toLowerCase()}`}
      sx={{ mb: 1, gap: 1, alignItems: 'center', flexWrap: 'wrap', px: 1.5, py: 0.75, borderRadius: 1, bgcolor: 'action.selected' }}
    >
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {chosen.length} selected
      </Typography>
      <Button size="small" color="error" variant="contained" onClick={() => setConfirming(true)}>
        Remove selected
      </Button>
      <Button size="small" color="inherit" onClick={() => setSelected(new Set())}>
        Clear selection
      </Button>
    </Stack>
  );
  const confirm = removeMany && (
    <ConfirmDialog
      open={confirming}
      title={`Remove ${chosen.length} ${chosen.length === 1 ? noun : `${noun}s`}?`}
      text={`${chosen
        .map((k) => `"${nameOfKey(k)}"`)
        .slice(0, 5)
        .join(', ')}${chosen.length > 5 ? ` and ${chosen.length - 5} more` : ''} will be removed from the list.`}
      onClose={() => setConfirming(false)}
      onConfirm={async () => {
        const ids = chosen;
        const failed = await removeMany.run(ids);
        if (!failed) setSelected(new Set());
        return failed;
      }}
    />
  );

  return (
    <Box>
      {bulk}
      {confirm}
      {(total > 0 || (searched && query)) && (filter || phone) && (
        <Stack direction="row" sx={{ mb: 1.5, gap: 1, flexWrap: 'wrap' }}>
          {filter && (
            <TextField
              label={
                searched
                  ? `Search ${label.toLowerCase()}`
                  : long
                    ? `Filter this page of ${label.toLowerCase()}`
                    : `Filter ${label.toLowerCase()}`
              }
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
      {total === 0 && !(searched && query) ? (
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
                  <Stack direction="row" sx={{ alignItems: 'center', gap: 0.5, mb: 0.5, minWidth: 0 }}>
                    {removeMany && checkbox(r)}
                    <Typography component="div" sx={{ fontWeight: 600, minWidth: 0, flex: 1 }}>
                      {cellContent(head, r, true)}
                    </Typography>
                  </Stack>
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
                        <Typography
                          component="dd"
                          variant="body2"
                          sx={{
                            m: 0,
                            minWidth: 0,
                            overflowWrap: 'anywhere',
                            // On a narrow card a long id wraps rather than pushing the card wider than the screen.
                            '& [data-id-cell]': { whiteSpace: 'normal', maxWidth: '100%' },
                            '& [data-id-cell] code': { overflowWrap: 'anywhere' },
                          }}
                        >
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
              {searched ? SEARCH_NO_MATCH : 'Nothing matches the filter.'}
            </Typography>
          )}
        </Box>
      ) : (
        <TableContainer sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={`${label} table`}>
          <Table size="small" aria-label={label}>
            <TableHead>
              <TableRow>
                {removeMany && (
                  <TableCell padding="checkbox">
                    <Checkbox
                      size="small"
                      checked={allChosen}
                      indeterminate={!allChosen && visibleKeys.some((k) => selected.has(k))}
                      onChange={pickAll}
                      slotProps={{ input: { 'aria-label': `Select all ${label.toLowerCase()} on this page` } }}
                    />
                  </TableCell>
                )}
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
              {visible.map((r) => (
                <TableRow key={rowKey(r)} hover selected={selected.has(rowKey(r))}>
                  {removeMany && <TableCell padding="checkbox">{checkbox(r)}</TableCell>}
                  {columns.map((c) => (
                    <TableCell
                      key={c.id}
                      align={c.align}
                      sx={{
                        overflowWrap: 'break-word',
                        verticalAlign: 'middle',
                        minWidth: c.minWidth ?? (c.truncate ? 120 : undefined),
                        // A cut column takes the room the others leave (max-width 0 with a share of the width), so
                        // every column fits at 1280 px however long the names; the whole name is in the tooltip.
                        maxWidth: c.truncate ? 0 : undefined,
                        width: c.truncate ? cutShare : undefined,
                        whiteSpace: c.nowrap ? 'nowrap' : undefined,
                      }}
                    >
                      {cellContent(c, r, !!c.truncate)}
                    </TableCell>
                  ))}
                  {actions && (
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap', verticalAlign: 'middle', width: '1%' }}>
                      {actions(r)}
                    </TableCell>
                  )}
                </TableRow>
              ))}
              {shown.length === 0 && (
                <TableRow>
                  <TableCell
                    colSpan={columns.length + (actions ? 1 : 0) + (removeMany ? 1 : 0)}
                    sx={{ textAlign: 'center', color: 'text.secondary' }}
                  >
                    {searched ? SEARCH_NO_MATCH : 'Nothing matches the filter.'}
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

/**
 * Next and Previous over a long list's server pages: "26-50 of more than 50" until the last page, whose count is
 * exact. The page number and the cursors walked are the paging's (in the URL).
 */
function ServerPager({
  label,
  paging,
  shown,
}: {
  label: string;
  paging: { of: ListPaging; next: string | null | undefined };
  shown: number;
}) {
  const { of, next } = paging;
  const count = next === null ? (of.number - 1) * PAGE_SIZE + shown : -1;
  return (
    <TablePagination
      component="div"
      count={count}
      page={of.number - 1}
      onPageChange={(_e, p) => (p > of.number - 1 ? of.next(next) : of.previous())}
      rowsPerPage={PAGE_SIZE}
      rowsPerPageOptions={[]}
      labelDisplayedRows={pageLabel}
      aria-label={`${label} pages`}
      slotProps={{ actions: { nextButton: { disabled: !next } } }}
    />
  );
}

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
