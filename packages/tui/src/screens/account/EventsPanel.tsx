// The user's own security events (sign-ins from new addresses, password, email and two-factor changes), newest first,
// each a sentence from core's rule: > older page, < newer page. core's useAccountEvents holds the calls.
import { ACCOUNT_MESSAGES, formatTime, loadFailure } from '@portal/core';
import { useAccountEvents, type AccountEventRow } from '@portal/core/react';
import { LogView } from '../../components/LogView';
import { useHelp, useNav } from '../../ui/context';

export function EventsPanel({ reserve }: { reserve: number }) {
  const nav = useNav();
  const events = useAccountEvents();
  useHelp('←→ section · ↑↓ move · > older · < newer · / filter');
  return (
    <LogView<AccountEventRow>
      log={events}
      title="Security events"
      rows={events.data?.entries}
      empty={ACCOUNT_MESSAGES.noEvents}
      error={loadFailure(events.error, ACCOUNT_MESSAGES.loadEvents)}
      keyOf={(e) => `${e.at}-${e.action}-${e.target}-${e.detail}`}
      nameOf={(e) => e.label}
      cols={[
        { header: 'When', get: (e) => formatTime(e.at), at: (e) => e.at },
        { header: 'Event', keep: true, get: (e) => e.label },
      ]}
      active={!nav.menuFocused}
      reserve={reserve + 1}
      wrap="truncate-end"
    />
  );
}
