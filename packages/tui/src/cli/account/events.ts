// `portal account events`: see its summary.
import { ACCOUNT_EVENTS_PAGE, ACCOUNT_EVENTS_PAGE_MAX, ACCOUNT_MESSAGES, accountEventLabel, type AccountEvent } from '@portal/core';
import { time } from '../common';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'events',
  summary: 'Show your security events, newest first: sign-ins from new addresses, password, email and two-factor changes',
  flags: [{ flags: '--limit <n>', description: `how many events, newest first (default ${ACCOUNT_EVENTS_PAGE})` }],
  examples: ['portal account events', 'portal account events --limit 100 --json'],
};

export type EventsOptions = Record<string, never>;

export async function run(_opts: EventsOptions, s: Session): Promise<void> {
  // --limit is read, checked and applied to the printed rows as on every list (the session's output).
  const limit = s.out.shape.limit ?? ACCOUNT_EVENTS_PAGE;
  const api = await s.api();
  const events: AccountEvent[] = [];
  let cursor: string | undefined;
  // Pages of at most ACCOUNT_EVENTS_PAGE_MAX until the limit is reached or the log ends.
  while (events.length < limit) {
    const page = await api.calls.accountEvents({ cursor, limit: Math.min(ACCOUNT_EVENTS_PAGE_MAX, limit - events.length) });
    events.push(...page.event.list);
    if (!page.event.next) break;
    cursor = page.event.next;
  }
  s.out.list(
    events.map((e) => ({ ...e, label: accountEventLabel(e) })),
    [
      { header: 'When', get: (e) => time(e.at) },
      { header: 'Event', get: (e) => e.label },
    ],
    ACCOUNT_MESSAGES.noEvents,
  );
}
