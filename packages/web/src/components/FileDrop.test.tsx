// Drop-zone checks per context and plan: wrong extension, too many files, too large; good files pass through.
// @vitest-environment node
import '@portal/core/testing/dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { MESSAGES, SAMPLE_TABLE_NAME, UPLOAD_CONTEXTS } from '@portal/core';
import { renderApp } from '../../test/utils';
import { FileDrop } from './FileDrop';

afterEach(cleanup);

const file = (name: string, size = 10) => new File([new Uint8Array(size)], name);
const choose = (files: File[]) => fireEvent.change(screen.getByLabelText(/^Choose (files|a file) to upload$/), { target: { files } });

describe('FileDrop', () => {
  it('refuses a wrong extension for the fit context with the allowed list', async () => {
    const onFiles = vi.fn();
    renderApp(<FileDrop context="fit" plan="Individual" onFiles={onFiles} />);
    choose([file('data.xlsx')]);
    expect((await screen.findAllByText(MESSAGES.invalidFileType(UPLOAD_CONTEXTS.fit.extensions))).length).toBeGreaterThan(0);
    expect(onFiles).not.toHaveBeenCalled();
  });

  it('takes a CSV and offers the sample table, with a note of the accepted shapes', async () => {
    const onFiles = vi.fn();
    renderApp(<FileDrop context="fit" plan="Individual" onFiles={onFiles} />);
    expect(screen.getByText((t) => t.includes(SAMPLE_TABLE_NAME))).toBeTruthy();
    choose([file('flowers.csv')]);
    await waitFor(() => expect(onFiles).toHaveBeenCalledTimes(1));
    fireEvent.click(screen.getByRole('button', { name: 'Use sample data' }));
    expect(onFiles).toHaveBeenCalledTimes(2);
    expect((onFiles.mock.calls[1]![0] as File[])[0]!.name).toBe(SAMPLE_TABLE_NAME);
  });

  it('refuses a file over the Individual size and accepts it on Enterprise', async () => {
    const onFiles = vi.fn();
    const big = file('big.json', 1024 * 1024 + 1);
    renderApp(<FileDrop context="uploads" plan="Individual" onFiles={onFiles} />);
    choose([big]);
    expect((await screen.findAllByText(MESSAGES.fileTooLarge)).length).toBeGreaterThan(0);
    cleanup();
    renderApp(<FileDrop context="uploads" plan="Enterprise" onFiles={onFiles} />);
    choose([big]);
    await waitFor(() => expect(onFiles).toHaveBeenCalledTimes(1));
  });

  it('caps the number of files', async () => {
    const onFiles = vi.fn();
    renderApp(<FileDrop context="uploads" plan="Individual" onFiles={onFiles} />);
    choose(Array.from({ length: UPLOAD_CONTEXTS.uploads.maxFiles + 1 }, (_, i) => file(`f${i}.json`)));
    expect((await screen.findAllByText(MESSAGES.tooManyFiles(UPLOAD_CONTEXTS.uploads.maxFiles))).length).toBeGreaterThan(0);
    expect(onFiles).not.toHaveBeenCalled();
  });
});
