// The progress of one upload batch: a bar per file, and the Cancel button that stops it.
// @vitest-environment node
import '@portal/core/testing/dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { renderApp } from '../../test/utils';
import { UploadBars } from './FileDrop';

afterEach(cleanup);

describe('UploadBars', () => {
  it('shows each file with its percentage and cancels the batch', () => {
    const cancel = vi.fn();
    renderApp(
      <UploadBars
        progress={[
          { file: 'a.json', index: 0, loaded: 50, total: 200 },
          { file: 'b.json', index: 1, loaded: 0, total: 100 },
        ]}
        onCancel={cancel}
      />,
    );
    expect(screen.getByRole('region', { name: 'Uploading 2 files' })).toBeTruthy();
    expect(screen.getByText('a.json: 25%')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Uploading b.json' }).getAttribute('aria-valuenow')).toBe('0');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel upload of 2 files' }));
    expect(cancel).toHaveBeenCalledTimes(1);
  });

  it('shows nothing when no upload runs, and no Cancel when the batch cannot be stopped', () => {
    const { container } = renderApp(<UploadBars progress={[]} onCancel={() => {}} />);
    expect(container.textContent).toBe('');
    cleanup();
    renderApp(<UploadBars progress={[{ file: 'one.py', index: 0, loaded: 1, total: 1 }]} />);
    expect(screen.getByText('Uploading one.py')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Cancel/ })).toBeNull();
  });
});
