// The shared data cache as a screen meets it, on the real server: a page change keeps the rows shown until the next
// page arrives, a list shown again draws at once and reads again behind it, a list polls on core's injected timers
// until its rows settle, and focus reads the stale answers on screen again. Each test has its own cache (a fresh
// PortalProvider), as TanStack Query's testing guide has it.
import '@portal/core/testing/dom';
import { act, cleanup, render, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiClient, seedEmptyProject, seedUpload, setRow, withTestApi } from '@portal/testkit/api';
import { FOCUS_REFRESH_MIN_MS as STALE_MS, REFRESH_MS, type Timers } from '@portal/core';
import { PortalProvider, usePager, useProjects, useUploads, type FocusSignal } from '@portal/core/react';
import { manualTimers } from '@portal/core/testing/timers';

const server = withTestApi({ worker: false });
const count = (name: string) => server.calls.filter((c) => c === name).length;

function wrapperOf(timers?: Timers, focus?: FocusSignal) {
  const api = apiClient(server);
  return ({ children }: { children: ReactNode }) => (
    <PortalProvider api={api} notifier={{ notify: () => {} }} timers={timers} focus={focus}>
      {children}
    </PortalProvider>
  );
}

// Screens of one test do not outlive it: a list left mounted would read again on the next test's focus.
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** A door's focus reports, as the terminal's are: the test says when focus goes and comes back. */
function focusReports() {
  const listeners = new Set<(focused: boolean) => void>();
  return {
    signal: { subscribe: (l: (focused: boolean) => void) => (listeners.add(l), () => void listeners.delete(l)) } satisfies FocusSignal,
    set: (focused: boolean) => listeners.forEach((l) => l(focused)),
  };
}

describe('the shared data cache', { timeout: 30_000 }, () => {
  it('Next keeps the page shown, not a loading state, until the next page arrives', async () => {
    for (const name of ['One', 'Two', 'Three', 'Four']) await seedEmptyProject(server, { name });
    const { result } = renderHook(
      () => {
        const pager = usePager(2);
        return { pager, projects: useProjects(server.user.client, pager.page) };
      },
      { wrapper: wrapperOf() },
    );
    const names = () => result.current.projects.data?.projects.map((p) => p.name);
    await waitFor(() => expect(names()).toEqual(['One', 'Two']));
    // Every frame from Next to the second page's answer shows the first page's rows, never an empty list.
    const seen: Array<string[] | undefined> = [];
    act(() => result.current.pager.next(result.current.projects.data?.next));
    seen.push(names());
    expect(result.current.projects.loading).toBe(false);
    // Meanwhile the page shown offers no Next of its own: a second Next waits for the second page.
    expect(result.current.projects.placeholder).toBe(true);
    expect(result.current.projects.data?.next).toBeNull();
    await waitFor(() => {
      seen.push(names());
      expect(names()).toEqual(['Three', 'Four']);
    });
    expect(seen.every((s) => s?.join() === 'One,Two' || s?.join() === 'Three,Four')).toBe(true);
    expect(seen[0]).toEqual(['One', 'Two']);
  });

  it('a list shown again draws at once from the cache and reads again behind it', async () => {
    await seedEmptyProject(server, { name: 'Seen before' });
    const Wrapper = wrapperOf();
    // What the list's screen drew, frame by frame.
    const frames: Array<{ loading: boolean; names: string[] | undefined }> = [];
    function Projects() {
      const { loading, data } = useProjects(server.user.client);
      frames.push({ loading, names: data?.projects.map((p) => p.name) });
      return null;
    }
    // One door (one provider); the list's screen unmounted and mounted again, as Back does.
    const view = render(<Wrapper>{[<Projects key="list" />]}</Wrapper>);
    await waitFor(() => expect(frames.at(-1)?.names).toEqual(['Seen before']));
    view.rerender(<Wrapper>{[]}</Wrapper>);
    await seedEmptyProject(server, { name: 'Made meanwhile' });
    // Past the time an answer is trusted, as after a minute on another screen.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + STALE_MS + 1 });
    const reads = count('bucketList');
    frames.length = 0;
    view.rerender(<Wrapper>{[<Projects key="list" />]}</Wrapper>);
    // The first frame already has the names: no loading state.
    expect(frames[0]).toEqual({ loading: false, names: ['Seen before'] });
    await waitFor(() => expect(frames.at(-1)?.names).toContain('Made meanwhile'));
    expect(count('bucketList')).toBe(reads + 1);
  });

  it("an upload being analysed is polled on core's timers until it settles, then no more", async () => {
    const project = await seedEmptyProject(server);
    const upload = await seedUpload(server, project.stamp, { flight: 'Processing' });
    const clock = manualTimers();
    const { result } = renderHook(() => useUploads(server.user.client, project.stamp), { wrapper: wrapperOf(clock.timers) });
    await waitFor(() => expect(result.current.data?.uploads.map((u) => u.flight)).toEqual(['Processing']));
    await waitFor(() => expect(clock.pending()).toEqual([REFRESH_MS.uploads]));
    await setRow(server, 'rends', upload.stamp, { flight: 'Ready' });
    const reads = count('rendList');
    await act(() => clock.fire());
    await waitFor(() => expect(result.current.data?.uploads.map((u) => u.flight)).toEqual(['Ready']));
    expect(count('rendList')).toBe(reads + 1);
    // Settled: nothing more is scheduled.
    await waitFor(() => expect(clock.pending()).toEqual([]));
  });

  it("the door's focus coming back reads the stale answers on screen again", async () => {
    await seedEmptyProject(server, { name: 'Before' });
    const focus = focusReports();
    const { result } = renderHook(() => useProjects(server.user.client), { wrapper: wrapperOf(undefined, focus.signal) });
    await waitFor(() => expect(result.current.data?.projects.map((p) => p.name)).toEqual(['Before']));
    act(() => focus.set(false));
    await seedEmptyProject(server, { name: 'Made elsewhere' });
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + STALE_MS + 1 });
    const reads = count('bucketList');
    act(() => focus.set(true));
    await waitFor(() => expect(result.current.data?.projects.map((p) => p.name)).toContain('Made elsewhere'));
    expect(count('bucketList')).toBe(reads + 1);
  });
});
