// The user's own account-security events on the account page: newest first, a page at a time, each as a sentence.
// Every door renders this hook.
import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { AccountEvent } from '../contract';
import { ACCOUNT_EVENTS_PAGE, ACCOUNT_MESSAGES, accountEventLabel } from '../rules/account';
import { callKey } from '../query';
import { useApi } from './context';
import { useLoad, type Loaded } from './useLoad';
import { usePager, type LogPages } from './pager';

/** One event as the account page shows it: when, and what happened as a plain sentence. */
export interface AccountEventRow extends AccountEvent {
  label: string;
}

export type AccountEvents = Loaded<{ entries: AccountEventRow[]; next: string | null }> & LogPages;

const eventsPage = (r: { event: { list: AccountEvent[]; next: string | null } }) => ({
  entries: r.event.list.map((e) => ({ ...e, label: accountEventLabel(e) })),
  next: r.event.next,
});

/** The signed-in user's security events (sign-ins from new addresses, password, email and two-factor changes). */
export function useAccountEvents(limit = ACCOUNT_EVENTS_PAGE): AccountEvents {
  const api = useApi();
  const pager = usePager(limit);
  const loaded = useLoad(callKey('accountEvents', pager.page), (signal) => api.calls.accountEvents(pager.page, { signal }), {
    failure: ACCOUNT_MESSAGES.loadEvents,
    select: eventsPage,
  });
  const next = loaded.data?.next ?? null;
  const { next: goOn } = pager;
  return {
    ...loaded,
    page: pager.number,
    hasOlder: next !== null,
    older: useCallback(() => goOn(next), [goOn, next]),
    newer: pager.previous,
  };
}

/**
 * Makes the account's sessions and security events old (the ones on screen are read again at once): after a change
 * that ends sessions or writes an event (password, email address, two-factor sign-in).
 */
export function useSecurityChanged(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: callKey('accountEvents') }),
      queryClient.invalidateQueries({ queryKey: callKey('sessionList') }),
    ]);
  }, [queryClient]);
}
