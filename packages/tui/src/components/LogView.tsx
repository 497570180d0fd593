// A log read newest first (the audit log, security events, webhook deliveries) as a list: > older page, < newer page,
// and the line under the list saying which page is shown and where the keys lead.
import type { ReactNode } from 'react';
import { Box, Text } from 'ink';
import type { LogPages } from '@portal/core/react';
import { ListView, type ListViewProps } from './ListView';

export interface LogViewProps<T> extends Omit<ListViewProps<T>, 'loading' | 'paging'> {
  /** The log's hook: its pages, and whether one is on the way. */
  log: LogPages & { loading: boolean };
  /** What the page line says after 'Page 2 · > older · < newer' (a filter the screen applies). */
  note?: ReactNode;
  /** The page line is cut at the edge instead of wrapped. */
  wrap?: 'truncate-end';
}

/** Handles > and < of a log; false for any other key. */
function turnPage(log: LogPages, input: string): boolean {
  if (input === '>') log.older();
  else if (input === '<') log.newer();
  else return false;
  return true;
}

export function LogView<T>({ log, note, wrap, onKey, ...list }: LogViewProps<T>) {
  return (
    <Box flexDirection="column">
      <ListView<T> {...list} loading={log.loading} onKey={(input, row) => onKey?.(input, row) || turnPage(log, input)} />
      <Text dimColor wrap={wrap}>
        Page {log.page}
        {log.hasOlder ? ' · > older' : ''}
        {log.page > 1 ? ' · < newer' : ''}
        {note}
      </Text>
    </Box>
  );
}
