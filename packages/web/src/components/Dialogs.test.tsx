// Name dialogs apply core's title rule with SPEC's create and rename messages before anything is sent.
// @vitest-environment node
import '@portal/core/testing/dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MESSAGES } from '@portal/core';
import { NameDialog } from './Dialogs';

afterEach(cleanup);

describe('NameDialog', () => {
  it('refuses a blank rename with the rename message and sends a trimmed valid name', async () => {
    const submit = vi.fn(async () => null);
    const close = vi.fn();
    render(<NameDialog open mode="rename" title="Rename project" initial="Old" onClose={close} onSubmit={submit} />);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Rename' }));
    expect(await screen.findByText(MESSAGES.titleRename)).toBeTruthy();
    expect(submit).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: '  New name ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Rename' }));
    await waitFor(() => expect(submit).toHaveBeenCalledWith('New name'));
    await waitFor(() => expect(close).toHaveBeenCalled());
  });

  it('uses the create message and stays open when the call fails', async () => {
    const submit = vi.fn(async () => MESSAGES.createProject);
    const close = vi.fn();
    render(<NameDialog open mode="create" title="Create Project" onClose={close} onSubmit={submit} />);
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText(MESSAGES.titleCreate)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'x'.repeat(61) } });
    expect((screen.getByLabelText('Name') as HTMLInputElement).maxLength).toBe(60);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Fine' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(submit).toHaveBeenCalledWith('Fine'));
    // The failure is said inside the dialog too, where a screen reader still reaches it.
    expect(await screen.findByText(MESSAGES.createProject)).toBeTruthy();
    expect(close).not.toHaveBeenCalled();
  });
});
