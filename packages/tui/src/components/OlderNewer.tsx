// Paging a log read newest first (the audit log, security events, webhook deliveries): > older, < newer, and the
// line under the list saying which page is shown and where the keys lead.
import type { ReactNode } from 'react';
import { Text } from 'ink';
import type { LogPages } from '@portal/core/react';

/** Handles > and < for a list's onKey; false for any other key. */
export function olderNewerKey(log: LogPages, input: string): boolean {
  if (input === '>') log.older();
  else if (input === '<') log.newer();
  else return false;
  return true;
}

/** 'Page 2 · > older · < newer', then what `children` adds to the line. */
export function OlderNewer({ log, wrap, children }: { log: LogPages; wrap?: 'truncate-end'; children?: ReactNode }) {
  return (
    <Text dimColor wrap={wrap}>
      Page {log.page}
      {log.hasOlder ? ' · > older' : ''}
      {log.page > 1 ? ' · < newer' : ''}
      {children}
    </Text>
  );
}
