// Lists: empty text, filter box across columns, sorting by a column in both directions, paging, selecting rows.
// @vitest-environment node
import '@portal/core/testing/dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render as rtlRender, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { ReactElement } from 'react';
import { EntityTable, type Column } from './EntityTable';

// The list keeps its filter, sort and page in the URL: it renders inside a router.
const render = (ui: ReactElement) => rtlRender(ui, { wrapper: MemoryRouter });

afterEach(cleanup);

interface Row {
  id: string;
  name: string;
  count: number;
}
const columns: Column<Row>[] = [
  { id: 'name', label: 'Name', value: (r) => r.name },
  { id: 'count', label: 'Count', value: (r) => r.count },
];
const rows: Row[] = [
  { id: '1', name: 'Beta', count: 10 },
  { id: '2', name: 'alpha', count: 2 },
  { id: '3', name: 'Gamma', count: 33 },
];
const base = { label: 'Things', columns, rowKey: (r: Row) => r.id, empty: 'none' };
const names = () =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .map((r) => r.firstElementChild!.textContent);

describe('EntityTable', () => {
  it('shows the empty-list text and no filter for an empty list', () => {
    render(<EntityTable<Row> label="Things" rows={[]} columns={columns} rowKey={(r) => r.id} empty="No Things Found" />);
    expect(screen.getByText('No Things Found')).toBeTruthy();
    expect(screen.queryByLabelText('Filter things')).toBeNull();
  });

  it('filters on any column, case-insensitively', () => {
    render(<EntityTable<Row> label="Things" rows={rows} columns={columns} rowKey={(r) => r.id} empty="none" />);
    fireEvent.change(screen.getByLabelText('Filter things'), { target: { value: 'ALP' } });
    expect(names()).toEqual(['alpha']);
    fireEvent.change(screen.getByLabelText('Filter things'), { target: { value: '33' } });
    expect(names()).toEqual(['Gamma']);
    fireEvent.change(screen.getByLabelText('Filter things'), { target: { value: 'zzz' } });
    expect(screen.getByText('Nothing matches the filter.')).toBeTruthy();
  });

  it('sorts text and numbers, toggling the direction', () => {
    render(<EntityTable<Row> label="Things" rows={rows} columns={columns} rowKey={(r) => r.id} empty="none" />);
    fireEvent.click(screen.getByRole('button', { name: 'Name' }));
    expect(names()).toEqual(['alpha', 'Beta', 'Gamma']);
    fireEvent.click(screen.getByRole('button', { name: 'Name' }));
    expect(names()).toEqual(['Gamma', 'Beta', 'alpha']);
    fireEvent.click(screen.getByRole('button', { name: 'Count' }));
    expect(names()).toEqual(['alpha', 'Beta', 'Gamma']);
  });

  it('shows the load failure with a Retry button instead of the empty text', () => {
    const retry = vi.fn();
    render(<EntityTable<Row> {...base} rows={undefined} empty="No Things Found" error="Failed to load requests" onRetry={retry} />);
    expect(screen.getByRole('alert').textContent).toContain('Failed to load requests');
    expect(screen.queryByText('No Things Found')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(retry).toHaveBeenCalledTimes(1);
  });

  it('on a phone shows each row as a card with its actions, sortable from a Sort by box', () => {
    const original = window.matchMedia;
    // A 360 px screen: MUI's breakpoint query for "below sm" matches.
    window.matchMedia = ((query: string) => ({
      matches: query.includes('max-width'),
      media: query,
      addEventListener() {},
      removeEventListener() {},
      addListener() {},
      removeListener() {},
      onchange: null,
      dispatchEvent: () => false,
    })) as typeof window.matchMedia;
    try {
      render(<EntityTable<Row> {...base} rows={rows} actions={(r) => <button type="button">Open {r.name}</button>} />);
      expect(screen.queryByRole('table')).toBeNull();
      const cards = within(screen.getByRole('list', { name: 'Things' })).getAllByRole('listitem');
      expect(cards).toHaveLength(3);
      expect(within(cards[0]!).getByRole('button', { name: 'Open Beta' })).toBeTruthy();
      expect(within(cards[0]!).getByText('Count')).toBeTruthy();
      fireEvent.change(screen.getByLabelText('Sort by'), { target: { value: 'count:desc' } });
      const order = within(screen.getByRole('list', { name: 'Things' }))
        .getAllByRole('listitem')
        .map((c) => c.firstElementChild!.textContent);
      expect(order).toEqual(['Gamma', 'Beta', 'alpha']);
    } finally {
      window.matchMedia = original;
    }
  });

  it('shows 25 rows a page with "1-25 of N", and pages on', () => {
    const many: Row[] = Array.from({ length: 55 }, (_, i) => ({ id: `b_${i}`, name: `Project ${String(i).padStart(2, '0')}`, count: i }));
    render(<EntityTable<Row> {...base} rows={many} initialSort={{ id: 'name', dir: 'asc' }} />);
    expect(names()).toHaveLength(25);
    expect(screen.getByText('1-25 of 55')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /next page/i }));
    expect(screen.getByText('26-50 of 55')).toBeTruthy();
    expect(names()[0]).toBe('Project 25');
    fireEvent.click(screen.getByRole('button', { name: /next page/i }));
    expect(screen.getByText('51-55 of 55')).toBeTruthy();
    expect(names()).toHaveLength(5);
    // Filtering goes back to the first page.
    fireEvent.change(screen.getByLabelText('Filter things'), { target: { value: 'Project 0' } });
    expect(names()).toHaveLength(10);
    expect(screen.queryByText(/of 10/)).toBeNull();
  });

  it('adds an ID column with a copy button, cuts long names with the whole name in a tooltip, and shows states as chips', async () => {
    const written: string[] = [];
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: async (t: string) => void written.push(t) }, configurable: true });
    const long = 'N'.repeat(60);
    render(
      <EntityTable<Row & { state: string }>
        label="Things"
        rows={[
          { id: 'b_1', name: long, count: 1, state: 'Failed' },
          { id: 'b_2', name: 'short', count: 2, state: 'Ready' },
        ]}
        columns={[...columns, { id: 'state', label: 'Status', value: (r) => r.state, status: true }]}
        rowKey={(r) => r.id}
        idOf={(r) => r.id}
        empty="none"
      />,
    );
    const header = within(screen.getByRole('table'))
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(header.slice(0, 2)).toEqual(['Name', 'ID']);
    fireEvent.click(screen.getByRole('button', { name: 'Copy ID of short' }));
    expect(await screen.findByRole('button', { name: 'Copied ID of short' })).toBeTruthy();
    expect(written).toEqual(['b_2']);
    const cut = screen.getByText(long);
    expect(cut.hasAttribute('data-ellipsis')).toBe(true);
    expect(getComputedStyle(cut).textOverflow).toBe('ellipsis');
    expect(screen.getByText('Failed').closest('[data-tone]')?.getAttribute('data-tone')).toBe('error');
    expect(screen.getByText('Ready').closest('[data-tone]')?.getAttribute('data-tone')).toBe('success');
  });

  it('an empty list says what it is for and offers the next step', () => {
    render(
      <EntityTable<Row>
        {...base}
        rows={[]}
        empty="No Things Found"
        emptyHint="Things hold your stuff."
        emptyAction={<button type="button">Create thing</button>}
      />,
    );
    expect(screen.getByText('Things hold your stuff.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Create thing' })).toBeTruthy();
  });

  it('shows skeleton rows, not a word, while the list first loads', () => {
    render(<EntityTable<Row> label="Things" rows={undefined} loading columns={columns} rowKey={(r) => r.id} empty="none" />);
    expect(screen.getByRole('status', { name: 'Loading Things' }).getAttribute('aria-busy')).toBe('true');
  });

  it('selects a range with Shift+click and removes the selection together after asking', async () => {
    const removed: string[][] = [];
    render(
      <EntityTable<Row>
        {...base}
        rows={rows}
        initialSort={{ id: 'name', dir: 'asc' }}
        removeMany={{ noun: 'thing', run: async (ids) => (removed.push(ids), null) }}
      />,
    );
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select alpha' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Gamma' }), { shiftKey: true });
    expect(screen.getByText('3 selected')).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Beta' }));
    expect(screen.getByText('2 selected')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove selected' }));
    expect(await screen.findByText('Remove 2 things?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    await vi.waitFor(() => expect(removed).toEqual([['2', '3']]));
  });
});
