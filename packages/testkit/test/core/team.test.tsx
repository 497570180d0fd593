import '@portal/core/testing/dom';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { addMember, apiClient, invitationToken, invite, rows, userStamp, withTestApi } from '@portal/testkit/api';
import { MESSAGES, TEAM_MESSAGES } from '@portal/core';
import { PortalProvider, type NotifyKind, useAudit, useInvite, useMembers } from '@portal/core/react';

// The real server on the embedded database.
const server = withTestApi({ worker: false });

function setup(token = server.user.token) {
  const api = apiClient(server, token);
  const notes: Array<[string, NotifyKind | undefined]> = [];
  const notifier = { notify: (m: string, k?: NotifyKind) => void notes.push([m, k]) };
  const wrapper = ({ children }: { children: ReactNode }) => (
    <PortalProvider api={api} notifier={notifier}>
      {children}
    </PortalProvider>
  );
  return { api, notes, wrapper };
}

describe('useMembers', { timeout: 30_000 }, () => {
  it('lists members and pending invitations; an owner invites, changes a role, removes; rules come from core', async () => {
    const bob = await server.newUser({ label: 'bob' });
    const bobId = await addMember(server, server.user.client, bob);
    const { wrapper, notes } = setup();
    const { result } = renderHook(() => useMembers(server.user.client), { wrapper });
    await waitFor(() => expect(result.current.data?.members.map((m) => m.user.email)).toEqual([server.user.email, bob.email]));
    expect(result.current.data?.myRole).toBe('owner');
    expect(result.current.canManage).toBe(true);
    expect(result.current.canAudit).toBe(true);
    expect(result.current.leaveBlocked).toBe(TEAM_MESSAGES.lastOwnerLeave);
    expect(result.current.roleBlocked(result.current.data!.me, 'member')).toBe(TEAM_MESSAGES.lastOwnerDemote);

    let outcome: string | null = 'unset';
    await act(async () => void (outcome = await result.current.invite('nope', 'member')));
    expect(outcome).toBe(MESSAGES.email);
    expect(server.calls).not.toContain('inviteCreate');
    await act(async () => void (outcome = await result.current.invite(bob.email, 'member')));
    expect(outcome).toBe(TEAM_MESSAGES.alreadyMember(bob.email));
    expect(notes.at(-1)).toEqual([TEAM_MESSAGES.alreadyMember(bob.email), 'error']);
    await act(async () => void (outcome = await result.current.invite('new.person@example.com', 'owner')));
    expect(outcome).toBeNull();
    // The test server has no mail service: the notice says the invitation went to its outbox.
    expect(notes.at(-1)).toEqual([TEAM_MESSAGES.invitedToOutbox('new.person@example.com'), 'success']);
    expect(result.current.data?.invites.map((i) => [i.email, i.role])).toEqual([['new.person@example.com', 'owner']]);

    await act(async () => void (outcome = await result.current.withdraw(result.current.data!.invites[0].stamp)));
    expect(outcome).toBeNull();
    expect(result.current.data?.invites).toEqual([]);

    await act(async () => void (outcome = await result.current.setRole(bobId, 'owner')));
    expect(outcome).toBeNull();
    expect(result.current.data?.members.find((m) => m.user.stamp === bobId)?.role).toBe('owner');
    expect(result.current.leaveBlocked).toBeNull();

    await act(async () => void (outcome = await result.current.remove(bobId)));
    expect(outcome).toBeNull();
    expect(result.current.data?.members.map((m) => m.user.email)).toEqual([server.user.email]);
    expect(notes.at(-1)).toEqual([TEAM_MESSAGES.removed(bob.email), 'success']);
  });

  it("a member sees the list, cannot manage, and may leave; the server's 403 sentence reaches a member who tries", async () => {
    const owner = await server.newUser({ label: 'own' });
    await addMember(server, owner.client, server.user);
    const { wrapper, notes } = setup();
    const { result } = renderHook(() => useMembers(owner.client), { wrapper });
    await waitFor(() => expect(result.current.data?.myRole).toBe('member'));
    expect(result.current.canManage).toBe(false);
    expect(result.current.canAudit).toBe(false);
    expect(result.current.leaveBlocked).toBeNull();
    const ownerId = await userStamp(server, owner);
    expect(result.current.removeBlocked(ownerId)).toBe(TEAM_MESSAGES.ownersOnly);
    let outcome: string | null = 'unset';
    await act(async () => void (outcome = await result.current.invite('x@example.com', 'member')));
    expect(outcome).toBe(TEAM_MESSAGES.ownersOnly);
    await act(async () => void (outcome = await result.current.leave()));
    expect(outcome).toBeNull();
    expect(notes.at(-1)).toEqual([TEAM_MESSAGES.left, 'success']);
    const left = await rows(server).selectFrom('permissions').select('user_stamp').where('client_stamp', '=', owner.client).execute();
    expect(left.map((r) => r.user_stamp)).toEqual([ownerId]);
  });
});

describe('useInvite', { timeout: 30_000 }, () => {
  it("accepts an invitation with the invitee's session; a used link gives the server's sentence", async () => {
    const owner = await server.newUser({ label: 'own' });
    await invite(server, owner, server.user.email);
    const token = await invitationToken(server, server.user.email);
    const { wrapper, notes } = setup();
    const { result } = renderHook(() => useInvite(token), { wrapper });
    await act(async () => void (await result.current.accept()));
    expect(result.current.joined?.stamp).toBe(owner.client);
    expect(notes.at(-1)).toEqual([TEAM_MESSAGES.joined(owner.name), 'success']);
    await act(async () => void (await result.current.accept()));
    expect(result.current.error).toBe(TEAM_MESSAGES.inviteUsed);
  });
});

describe('useAudit', { timeout: 30_000 }, () => {
  it('pages the log newest first, back and forth, and filters by action', async () => {
    const t = server.user.token;
    for (const name of ['One', 'Two', 'Three']) {
      await fetch(`${server.url}/api/client/apikey/item`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${t}`, 'content-type': 'application/json' },
        body: JSON.stringify({ client: server.user.client, name }),
      });
    }
    const { wrapper } = setup();
    const { result } = renderHook(() => useAudit(server.user.client, 2), { wrapper });
    await waitFor(() => expect(result.current.data?.entries.map((e) => e.detail)).toEqual(['Three', 'Two']));
    expect(result.current.page).toBe(1);
    expect(result.current.hasOlder).toBe(true);
    act(() => result.current.older());
    await waitFor(() => expect(result.current.data?.entries[0]?.detail).toBe('One'));
    expect(result.current.page).toBe(2);
    act(() => result.current.newer());
    await waitFor(() => expect(result.current.data?.entries[0]?.detail).toBe('Three'));
    act(() => result.current.setAction('member.join'));
    await waitFor(() => expect(result.current.data?.entries.map((e) => e.action)).toEqual(['member.join']));
    expect(result.current.hasOlder).toBe(false);
  });
});
