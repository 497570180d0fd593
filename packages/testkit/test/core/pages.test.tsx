// Lists a page at a time from core: the client's listPages walk, and a list hook following usePager's Next and Previous.
import '@portal/core/testing/dom';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { seedBucket, withTestApi } from '@portal/testkit/api';
import { ApiClient, listPage, listPages, memoryTokenStore } from '@portal/core';
import { PortalProvider, usePager, useProjects } from '@portal/core/react';

const server = withTestApi({ worker: false });
const NAMES = ['One', 'Two', 'Three', 'Four', 'Five'];

async function fiveProjects() {
  for (const name of NAMES) await seedBucket(server, { name });
  return new ApiClient({ baseUrl: server.url, tokens: memoryTokenStore(server.user.token) });
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
