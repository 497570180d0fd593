// Lists: empty text, filter box across columns, and sorting by a column in both directions.
// @vitest-environment node
import '@portal/core/testing/dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { DataTable, type Column } from './DataTable';

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
const names = () =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .map((r) => r.firstElementChild!.textContent);

describe('DataTable', () => {
  it('shows the empty-list text and no filter for an empty list', () => {
    render(<DataTable<Row> label="Things" rows={[]} columns={columns} rowKey={(r) => r.id} empty="No Things Found" />);
    expect(screen.getByText('No Things Found')).toBeTruthy();
    expect(screen.queryByLabelText('Filter things')).toBeNull();
  });

  it('filters on any column, case-insensitively', () => {
    render(<DataTable<Row> label="Things" rows={rows} columns={columns} rowKey={(r) => r.id} empty="none" />);
    fireEvent.change(screen.getByLabelText('Filter things'), { target: { value: 'ALP' } });
    expect(names()).toEqual(['alpha']);
    fireEvent.change(screen.getByLabelText('Filter things'), { target: { value: '33' } });
    expect(names()).toEqual(['Gamma']);
    fireEvent.change(screen.getByLabelText('Filter things'), { target: { value: 'zzz' } });
    expect(screen.getByText('Nothing matches the filter.')).toBeTruthy();
  });

  it('sorts text and numbers, toggling the direction', () => {
    render(<DataTable<Row> label="Things" rows={rows} columns={columns} rowKey={(r) => r.id} empty="none" />);
    fireEvent.click(screen.getByRole('button', { name: 'Name' }));
    expect(names()).toEqual(['alpha', 'Beta', 'Gamma']);
    fireEvent.click(screen.getByRole('button', { name: 'Name' }));
    expect(names()).toEqual(['Gamma', 'Beta', 'alpha']);
    fireEvent.click(screen.getByRole('button', { name: 'Count' }));
    expect(names()).toEqual(['alpha', 'Beta', 'Gamma']);
  });

  it('shows the load failure with a Retry button instead of the empty text', () => {
    const retry = vi.fn();
    render(
      <DataTable<Row>
        label="Things"
        rows={undefined}
        columns={columns}
        rowKey={(r) => r.id}
        empty="No Things Found"
        error="Failed to load requests"
        onRetry={retry}
      />,
    );
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
      render(
        <DataTable<Row>
          label="Things"
          rows={rows}
          columns={columns}
          rowKey={(r) => r.id}
          empty="none"
          actions={(r) => <button type="button">Open {r.name}</button>}
        />,
      );
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
});
