// A list screen's body: arrows move, Enter opens, / filters, r renames, d removes (after a confirmation), n creates;
// a long list (core's useListPaging) pages on the server: ] next page, [ the page before, the filter on the page shown;
// a long project list is searched by name on the server (/) and turned from newest first to oldest first (o).
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Box, Text, useInput } from 'ink';
import { printable } from '@portal/core';
import { SEARCH_NO_MATCH, useListPaging, type ListPaging } from '@portal/core/react';
import { useCapture, useNav } from '../ui/context';
import { Table, type Col } from './Table';
import { TextField } from './TextField';

export interface ListViewProps<T> {
  title: string;
  rows: readonly T[] | undefined;
  loading: boolean;
  cols: readonly Col<T>[];
  empty: string;
  /** The load failed: this text (in red) instead of the empty-list text. */
  error?: string | null;
  keyOf(row: T): string;
  nameOf(row: T): string;
  onOpen?(row: T): void;
  rename?(id: string, name: string): Promise<string | null>;
  remove?(id: string): Promise<string | null>;
  /** The word the removal asks with (default Remove; a session is ended). */
  removeVerb?: string;
  /** Whether this row may be removed (default every row). */
  removable?(row: T): boolean;
  /** Create with a name typed inline; null on success, else the message. */
  create?(name: string): Promise<string | null>;
  /** The inline create prompt's label (default Name). */
  createLabel?: string;
  /** Create elsewhere (another screen or a prompt of the screen's own). */
  onNew?(): void;
  /** More keys of the screen: return true when handled. */
  onKey?(input: string, row: T | undefined): boolean;
  /** Whether this list takes keys (a screen with two lists gives them to one). */
  active?: boolean;
  /** Lines the screen shows besides this list (another list, a form), so the window leaves room for them. */
  reserve?: number;
  footer?: ReactNode;
  /** The list's paging (useLongList, given to its list hook too) and the `next` of its last answer. */
  paging?: { of: ListPaging; next: string | null | undefined };
}

/** Rows of a server page in the terminal (the window scrolls within it). */
export const TERMINAL_PAGE = 50;

/**
 * A list screen's paging for its ListView and its list hook: pages of TERMINAL_PAGE once the list is long; `searched`
 * when its server call searches and orders (the project list).
 */
export const useLongList = (searched = false): ListPaging => useListPaging(TERMINAL_PAGE, { searched });

/** The range line's paging part: "page 2 · ] next page · [ previous" (what the keys can do from here). */
function pageHint(paging: ListViewProps<unknown>['paging']): string {
  if (!paging?.of.long) return '';
  const turn = paging.of.searched ? (paging.of.order === 'newest' ? 'o oldest first' : 'o newest first') : '';
  const keys = [paging.next ? '] next page' : '', paging.of.number > 1 ? '[ previous page' : '', turn].filter(Boolean);
  return [`page ${paging.of.number}`, ...keys].join(' · ');
}

type Editing =
  | { kind: 'rename'; id: string; value: string }
  | { kind: 'create'; value: string }
  | { kind: 'remove'; id: string; name: string }
  | { kind: 'filter' }
  | null;

/**
 * How many rows of a list fit a terminal of this height: what is left after the frame's own lines (header, a
 * notification, the help line), the list's title, headers and range line, and what the screen reserves.
 */
export function listWindow(rows: number, reserve = 0): number {
  return Math.max(3, rows - 9 - reserve);
}

export function ListView<T>(props: ListViewProps<T>) {
  const nav = useNav();
  const [own, setOwn] = useState('');
  // A long list searched on the server: the filter line is its search (sent once typing pauses), not a filter here.
  const server = props.paging?.of.long && props.paging.of.searched ? props.paging.of : null;
  const filter = server ? server.search : own;
  const setFilter = server ? server.setSearch : setOwn;
  const [at, setAt] = useState(0);
  const [editing, setEditing] = useState<Editing>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useCapture('all', editing !== null);
  // An applied filter is what Esc clears first; Esc leaves the screen only once there is no filter.
  const { claimEscape } = nav;
  useEffect(() => (filter && !editing ? claimEscape(() => setFilter('')) : undefined), [filter, editing, claimEscape, setFilter]);

  const rows = useMemo(() => {
    const q = server ? '' : filter.trim().toLowerCase();
    const all = props.rows ?? [];
    return q
      ? all.filter((r) =>
          props.cols.some((c) =>
            String(c.get(r) ?? '')
              .toLowerCase()
              .includes(q),
          ),
        )
      : all;
  }, [props.rows, props.cols, filter, server]);
  const sel = Math.min(at, Math.max(0, rows.length - 1));
  const row = rows[sel];
  // The rows that fit the terminal, around the selection: the title, headers and the selected row stay on screen.
  const win = listWindow(nav.size.rows, props.reserve ?? 0);
  const start = Math.max(0, Math.min(sel - Math.floor(win / 2), rows.length - win));
  const shown = rows.slice(start, start + win);
  const width = nav.size.columns - nav.size.menu - 2;
  const active = (props.active ?? true) && !nav.menuFocused;
  const hint = pageHint(props.paging as ListViewProps<unknown>['paging']);

  /** `]` and `[` on a long list: the next page or the one before, from its top. */
  const turnPage = (input: string, paging: ListViewProps<T>['paging']) => {
    if (input === 'o' && paging?.of.long && paging.of.searched) {
      setAt(0);
      paging.of.setOrder(paging.of.order === 'newest' ? 'oldest' : 'newest');
      return true;
    }
    const to = input === ']' ? paging?.next : input === '[' && paging && paging.of.number > 1 ? 'back' : null;
    if (!paging?.of.long || !to) return false;
    setAt(0);
    if (to === 'back') paging.of.previous();
    else paging.of.next(to);
    return true;
  };

  const run = async (action: () => Promise<string | null>) => {
    setBusy(true);
    const failed = await action();
    setBusy(false);
    setProblem(failed);
    if (!failed) setEditing(null);
  };

  // Ink re-subscribes handlers in effects; a key typed right after another must see the state that key made.
  const latest = useRef({ editing, rows, sel, row, props, win });
  latest.current = { editing, rows, sel, row, props, win };
  const edit = (next: Editing) => {
    latest.current.editing = next;
    setEditing(next);
  };
  useInput(
    (input, key) => {
      const { editing, rows, sel, row, props, win } = latest.current;
      if (editing?.kind === 'remove') {
        if (input === 'y' || input === 'Y') void run(() => props.remove!(editing.id));
        else if (input === 'n' || input === 'N' || key.escape) edit(null);
        return;
      }
      if (editing) {
        if (key.escape) {
          if (editing.kind === 'filter') setFilter('');
          edit(null);
          setProblem(null);
        }
        return;
      }
      const move = (to: number) => setAt((latest.current.sel = Math.max(0, Math.min(rows.length - 1, to))));
      if (key.downArrow) move(sel + 1);
      else if (key.upArrow) move(sel - 1);
      else if (key.pageDown) move(sel + win);
      else if (key.pageUp) move(sel - win);
      else if (key.home) move(0);
      else if (key.end) move(rows.length - 1);
      else if (key.return && row && props.onOpen) props.onOpen(row);
      else if (input === '/') edit({ kind: 'filter' });
      else if (input === 'r' && row && props.rename) edit({ kind: 'rename', id: props.keyOf(row), value: props.nameOf(row) });
      else if (input === 'd' && row && props.remove && (props.removable?.(row) ?? true))
        edit({ kind: 'remove', id: props.keyOf(row), name: props.nameOf(row) });
      else if (input === 'n' && props.create) edit({ kind: 'create', value: '' });
      else if (input === 'n' && props.onNew) props.onNew();
      else if (!turnPage(input, props.paging)) props.onKey?.(input, row);
    },
    { isActive: active && !busy },
  );

  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        {props.title}
      </Text>
      {filter || editing?.kind === 'filter' ? (
        <Box>
          <Text>{server ? 'Search: ' : 'Filter: '}</Text>
          {editing?.kind === 'filter' ? (
            <TextField value={filter} onChange={(v) => (setFilter(v), setAt(0))} onSubmit={() => setEditing(null)} width={width - 8} />
          ) : (
            <Text>{filter}</Text>
          )}
        </Box>
      ) : null}
      {props.loading && !props.rows ? (
        <Text dimColor>Loading…</Text>
      ) : rows.length === 0 ? (
        props.error && !props.rows?.length ? (
          <Text color="red">{props.error}</Text>
        ) : (
          <Text>{server && filter.trim() ? SEARCH_NO_MATCH : props.empty}</Text>
        )
      ) : (
        <>
          <Table rows={shown} cols={props.cols} selected={active ? sel - start : undefined} keyOf={props.keyOf} width={width} />
          {rows.length > shown.length || hint ? (
            <Text dimColor wrap="truncate-end">
              {[rows.length > shown.length ? `${start + 1}-${start + shown.length} of ${rows.length} · PgUp/PgDn Home/End` : '', hint]
                .filter(Boolean)
                .join(' · ')}
            </Text>
          ) : null}
        </>
      )}
      {editing?.kind === 'rename' ? (
        <Box>
          <Text>New name: </Text>
          <TextField
            focus={!busy}
            value={editing.value}
            onChange={(value) => setEditing({ ...editing, value })}
            onSubmit={(v) => void run(() => props.rename!(editing.id, v))}
            width={width - 10}
          />
        </Box>
      ) : null}
      {editing?.kind === 'create' ? (
        <Box>
          <Text>{props.createLabel ?? 'Name'}: </Text>
          <TextField
            focus={!busy}
            value={editing.value}
            onChange={(value) => setEditing({ ...editing, value })}
            onSubmit={(v) => void run(() => props.create!(v))}
            width={width - (props.createLabel ?? 'Name').length - 2}
          />
        </Box>
      ) : null}
      {editing?.kind === 'remove' ? (
        <Text color="yellow">
          {props.removeVerb ?? 'Remove'} {printable(editing.name)}? (y/n)
        </Text>
      ) : null}
      {busy ? <Text dimColor>Working…</Text> : null}
      {problem && editing ? (
        <Text color="red" wrap="truncate-end">
          {problem}
        </Text>
      ) : null}
      {props.footer}
    </Box>
  );
}
