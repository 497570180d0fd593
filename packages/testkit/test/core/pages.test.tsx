// Lists a page at a time from core: the client's listPages walk, a list hook following usePager's Next and Previous,
// and a list screen's rule (useListPaging): whole up to WHOLE_LIST_MAX rows, pages on the server beyond.
import '@portal/core/testing/dom';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { apiClient, seedEmptyProject, seedProjects, withTestApi } from '@portal/testkit/api';
import { ApiClient, listPage, listPages } from '@portal/core';
import { PortalProvider, SEARCH_DEBOUNCE_MS, WHOLE_LIST_MAX, useListPaging, usePager, useProjects } from '@portal/core/react';
import { manualTimers } from '@portal/core/testing/timers';
import type { Timers } from '@portal/core';

const server = withTestApi({ worker: false });
const NAMES = ['One', 'Two', 'Three', 'Four', 'Five'];

async function fiveProjects() {
  for (const name of NAMES) await seedEmptyProject(server, { name });
  return apiClient(server);
}

describe('list pages in core', { timeout: 30_000 }, () => {
  it('listPages walks a list two rows at a time, in its order, and stops at the last page', async () => {
    const api = await fiveProjects();
    const pages = [];
    for await (const page of listPages(api, 'bucketList', { client: server.user.client, active: 1 }, 2)) pages.push(page);
    expect(pages.map((p) => p.list.map((b) => b.name))).toEqual([['One', 'Two'], ['Three', 'Four'], ['Five']]);
    expect(pages.map((p) => p.next === null)).toEqual([false, false, true]);
    // The rest of the answer comes along: the client the page belongs to.
    expect(pages[0].answer.client.list[0].stamp).toBe(server.user.client);
    const all = await listPage(api, 'bucketList', { client: server.user.client }, { limit: 200 });
    expect(all.list.map((b) => b.name)).toEqual(NAMES);
  });

  it('useProjects with usePager: a page of two, Next, Next, Previous; a hook without a page gets the whole list and no next', async () => {
    const api = await fiveProjects();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <PortalProvider api={api} notifier={{ notify: () => {} }}>
        {children}
      </PortalProvider>
    );
    const { result } = renderHook(
      () => {
        const pager = usePager(2);
        return { pager, projects: useProjects(server.user.client, pager.page) };
      },
      { wrapper },
    );
    const names = () => result.current.projects.data?.projects.map((p) => p.name);
    await waitFor(() => expect(names()).toEqual(['One', 'Two']));
    act(() => result.current.pager.next(result.current.projects.data?.next));
    await waitFor(() => expect(names()).toEqual(['Three', 'Four']));
    expect(result.current.pager.number).toBe(2);
    act(() => result.current.pager.next(result.current.projects.data?.next));
    await waitFor(() => expect(names()).toEqual(['Five']));
    expect(result.current.projects.data?.next).toBeNull();
    act(() => result.current.pager.previous());
    await waitFor(() => expect(names()).toEqual(['Three', 'Four']));

    const whole = renderHook(() => useProjects(server.user.client), { wrapper });
    await waitFor(() => expect(whole.result.current.data?.projects.map((p) => p.name)).toEqual(NAMES));
    expect(whole.result.current.data).not.toHaveProperty('next');
  });
});

describe('a list screen pages on the server once its list is long (useListPaging)', { timeout: 60_000 }, () => {
  const wrapperOf =
    (api: ApiClient, timers?: Timers) =>
    ({ children }: { children: ReactNode }) => (
      <PortalProvider api={api} notifier={{ notify: () => {} }} timers={timers}>
        {children}
      </PortalProvider>
    );
  const render = (api: ApiClient, searched = false, timers?: Timers) =>
    renderHook(
      () => {
        const paging = useListPaging(25, { searched });
        return { paging, projects: useProjects(server.user.client, paging) };
      },
      { wrapper: wrapperOf(api, timers) },
    );

  it('10,000 projects: the first answer says the list is long; then pages of 25 newest first, Next and Previous, the order turned, a search', async () => {
    const { name } = await seedProjects(server, 10_000);
    const api = apiClient(server);
    const clock = manualTimers();
    const { result } = render(api, true, clock.timers);
    const names = () => result.current.projects.data?.projects.map((p) => p.name);
    await waitFor(() => expect(result.current.paging.long).toBe(true));
    // Newest first, as a whole list opens.
    await waitFor(() => expect(names()).toEqual(Array.from({ length: 25 }, (_, i) => name(10_000 - i))));
    expect(result.current.paging.page).toEqual({ limit: 25, order: 'newest' });
    act(() => result.current.paging.next(result.current.projects.data?.next));
    await waitFor(() => expect(names()?.[0]).toBe(name(9_975)));
    expect(result.current.paging.number).toBe(2);
    act(() => result.current.paging.next(result.current.projects.data?.next));
    await waitFor(() => expect(names()?.[0]).toBe(name(9_950)));
    act(() => result.current.paging.previous());
    await waitFor(() => expect(names()?.[0]).toBe(name(9_975)));
    // The page asked for is 25 rows, never the whole list: the first answer held at most WHOLE_LIST_MAX of them.
    expect(names()).toHaveLength(25);

    // Oldest first: back to the first page, in the other order.
    act(() => result.current.paging.setOrder('oldest'));
    await waitFor(() => expect(names()).toEqual(Array.from({ length: 25 }, (_, i) => name(i + 1))));
    expect(result.current.paging.number).toBe(1);
    act(() => result.current.paging.next(result.current.projects.data?.next));
    await waitFor(() => expect(names()?.[0]).toBe(name(26)));

    // A search goes to the server once typing pauses, and starts again at the first page.
    act(() => result.current.paging.setSearch(' PROJECT 0999'));
    expect(result.current.paging.page.q).toBeUndefined();
    expect(clock.pending()).toContain(SEARCH_DEBOUNCE_MS);
    act(() => result.current.paging.setSearch(' PROJECT 09990 '));
    await act(() => clock.fire());
    await waitFor(() => expect(names()).toEqual([name(9_990)]));
    expect(result.current.paging.page).toEqual({ limit: 25, order: 'oldest', q: 'PROJECT 09990' });
    expect(result.current.paging.number).toBe(1);
    act(() => result.current.paging.setSearch('project 0999'));
    await act(() => clock.fire());
    act(() => result.current.paging.setOrder('newest'));
    await waitFor(() => expect(names()).toEqual(Array.from({ length: 10 }, (_, i) => name(9_999 - i))));
    expect(result.current.projects.data?.next).toBeNull();
  });

  it(`a list of at most ${WHOLE_LIST_MAX} is held whole: one answer, next null, the screen pages it itself`, async () => {
    const { name } = await seedProjects(server, WHOLE_LIST_MAX);
    const api = apiClient(server);
    const { result } = render(api);
    await waitFor(() => expect(result.current.projects.data?.projects).toHaveLength(WHOLE_LIST_MAX));
    expect(result.current.projects.data?.next).toBeNull();
    expect(result.current.paging.long).toBe(false);
    expect(result.current.projects.data?.projects.at(-1)?.name).toBe(name(WHOLE_LIST_MAX));
  });
});
