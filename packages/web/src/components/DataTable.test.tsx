// Lists: empty text, filter box across columns, and sorting by a column in both directions.
// @vitest-environment node
import '../test-dom';
import { afterEach, describe, expect, it } from 'vitest';
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
const names = () => within(screen.getByRole('table')).getAllByRole('row').slice(1).map((r) => r.firstElementChild!.textContent);

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
});
