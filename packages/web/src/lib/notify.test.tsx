// SPEC's notification durations: upload success 10 seconds, errors 5, everything else 20.
// @vitest-environment node
import '@portal/core/testing/dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { SnackbarProvider } from 'notistack';
import { notify, type NotifyKind } from './notify';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** Whether the notice is still there after `ms` (fake time, from its start). */
async function after(ms: number, message: string): Promise<boolean> {
  // In steps, so React renders between the notice's timers (hide, then its exit transition).
  for (let t = 0; t < ms; t += 250) {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(Math.min(250, ms - t));
    });
  }
  return !!screen.queryByText(message);
}

async function check(kind: NotifyKind, message: string, seconds: number) {
  vi.useFakeTimers();
  render(
    <SnackbarProvider maxSnack={4}>
      <p>page</p>
    </SnackbarProvider>,
  );
  act(() => notify(message, kind));
  // Still there just before its time is up; gone once it is, allowing for the enter and exit transitions.
  expect(await after(seconds * 1000 - 500, message)).toBe(true);
  expect(await after(4000, message)).toBe(false);
  cleanup();
  vi.useRealTimers();
}

describe('notify', () => {
  it('keeps an upload success 10 s', () => check('uploadSuccess', 'Uploading a.json completed successfully!', 10));
  it('keeps an error 5 s', () => check('error', 'Failed to load requests', 5));
  it('keeps any other notice 20 s', () => check('default', 'Upload cancelled.', 20));
});
