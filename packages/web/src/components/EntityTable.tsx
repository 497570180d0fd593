// The one list of the portal, used by every list page: SPEC's columns, filter box, sortable columns, pages of 25
// ("1-25 of N"), an ID column with copy, status chips, rows selected with checkboxes and removed together with one
// Undo, skeleton rows while loading, and an empty state that says what the list is for and offers the next step.
// Its parts: the view state in the URL (table/listView.ts), the selection (table/selection.tsx), the laptop's table
// that fits its card (table/WideTable.tsx, with the column rule of table/columns.tsx) and the phone's cards
// (table/PhoneCards.tsx). A long list (core's useListPaging) pages on the server instead: the table shows the server's
// page of 25 with Next and Previous. On the project list the filter box then searches the names on the server and the
// Created sort is the server's order; on the others the filter and sort apply to the page shown.
import { useMemo, type ReactNode } from 'react';
import { Alert, Box, Button, Skeleton, Stack, TablePagination, TextField, Typography, useMediaQuery } from '@mui/material';
import { useTheme } from '@mui/material/styles';
import { SEARCH_NO_MATCH, type ListPaging } from '@portal/core/react';
import { IdCell } from './Cells';
import type { Column } from './table/columns';
import { PAGE_SIZE, pageLabel, useListView, type Sort } from './table/listView';
import { useSelection, type RemoveMany } from './table/selection';
import { PhoneCards } from './table/PhoneCards';
import { WideTable } from './table/WideTable';

export type { Column } from './table/columns';
export { PAGE_SIZE, pageLabel, useTablePaging } from './table/listView';
export { fromList, fromLoad, stampOf } from './table/fromLoad';

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
  initialSort?: Sort;
  filter?: boolean;
  /** Shown instead of the empty text when the list could not be loaded (SPEC's message where it names one). */
  error?: string | null;
  /** Offered beside the error; leave it out where trying again cannot help (the thing is not there). */
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
  removeMany?: RemoveMany;
  /**
   * The list's paging (useTablePaging, given to its list hook too) and the `next` of its last answer: once the list
   * is long, `rows` is the server's page and Next and Previous walk the pages.
   */
  paging?: { of: ListPaging; next: string | null | undefined };
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

  const columns = useMemo(() => {
    const [first, ...rest] = given;
    const head = first ? [{ ...first, truncate: first.truncate ?? true }] : [];
    if (!idOf || !first) return [...head, ...rest];
    const name = nameOf ?? ((r: T) => String(first.value?.(r) ?? ''));
    // The id matters to the Python client, not to reading the list: it is the last column to fold under the name.
    const idColumn: Column<T> = {
      id: 'id',
      label: 'ID',
      value: idOf,
      priority: 'low',
      render: (r) => <IdCell id={idOf(r)} name={name(r)} />,
    };
    return [...head, idColumn, ...rest];
  }, [given, idOf, nameOf]);

  const view = useListView(rows, columns, { urlKey, initialSort, long, searched });
  const { query, setQuery, sort, setSort, page, setPage, shown, visible, lastPage } = view;

  const nameOfKey = (key: string) => {
    const r = (rows ?? []).find((x) => rowKey(x) === key);
    return r ? (nameOf?.(r) ?? String(columns[0]?.value?.(r) ?? key)) : key;
  };
  const present = useMemo(() => (rows ?? []).map(rowKey), [rows, rowKey]);
  const selection = useSelection({ label, present, visible: visible.map(rowKey), nameOfKey, removeMany });

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
  const noMatch = shown.length === 0 ? (searched ? SEARCH_NO_MATCH : 'Nothing matches the filter.') : null;

  return (
    <Box>
      {selection.bar}
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
        <PhoneCards
          label={label}
          rows={visible}
          columns={columns}
          rowKey={rowKey}
          checkbox={removeMany ? selection.checkbox : undefined}
          actions={actions}
          noMatch={noMatch}
        />
      ) : (
        <WideTable
          label={label}
          rows={visible}
          columns={columns}
          rowKey={rowKey}
          sort={sort}
          onSort={view.toggle}
          selection={removeMany ? selection : undefined}
          actions={actions}
          noMatch={noMatch}
        />
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
