// One endpoint's delivery log in the terminal: the deliveries, newest first, and the picked one's attempts (time,
// status code, duration and the answer's first bytes), each on one line cut at the edge.
import { useState } from 'react';
import { Box, Text } from 'ink';
import {
  attemptText,
  formatDeliveryStatus,
  formatTime,
  loadFailure,
  WEBHOOK_MESSAGES,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '@portal/core';
import { useWebhookDelivery, useWebhookLog } from '@portal/core/react';
import { LogView } from '../../components/LogView';
import { useHelp, useNav } from '../../ui/context';

/** Attempts shown under the list; the rest are named by count. */
const ATTEMPT_LINES = 4;

function Attempts({ id, width }: { id: string; width: number }) {
  const loaded = useWebhookDelivery(id);
  const attempts = loaded.data?.attempts ?? [];
  const shown = attempts.slice(-ATTEMPT_LINES);
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text bold wrap="truncate-end">
        Attempts of {id}
        {attempts.length > shown.length ? ` (last ${shown.length} of ${attempts.length})` : ''}
      </Text>
      {loaded.error ? <Text color="red">{loadFailure(loaded.error)}</Text> : null}
      {loaded.data && attempts.length === 0 ? <Text dimColor>No attempt yet</Text> : null}
      {shown.map((a, i) => (
        <Box key={i} width={width}>
          <Text wrap="truncate-end">
            {formatTime(a.at)} {attemptText(a, width)}
          </Text>
        </Box>
      ))}
    </Box>
  );
}

export function DeliveryLogView({ endpoint, onTest }: { endpoint: WebhookEndpoint; onTest(): void }) {
  const nav = useNav();
  const log = useWebhookLog(endpoint.stamp);
  const [open, setOpen] = useState<string | null>(null);
  useHelp('↑↓ move · Enter attempts · R redeliver · t test event · > older · < newer · Esc endpoints');
  const width = nav.size.columns - nav.size.menu - 2;
  return (
    <Box flexDirection="column">
      <LogView<WebhookDelivery>
        log={log}
        title={`Deliveries of ${endpoint.name}`}
        rows={log.data?.deliveries}
        empty={WEBHOOK_MESSAGES.noDeliveries}
        error={loadFailure(log.error)}
        keyOf={(d) => d.stamp}
        nameOf={(d) => d.type}
        reserve={open ? ATTEMPT_LINES + 3 : 1}
        cols={[
          { header: 'Event', keep: true, get: (d) => d.type },
          { header: 'When', get: (d) => formatTime(d.createdAt), at: (d) => d.createdAt },
          { header: 'Status', keep: true, get: (d) => formatDeliveryStatus(d) },
        ]}
        onOpen={(d) => setOpen((o) => (o === d.stamp ? null : d.stamp))}
        onKey={(input, d) => {
          if (input === 'R' && d) void log.redeliver(d.stamp);
          else if (input === 't') onTest();
          else return false;
          return true;
        }}
      />
      {open ? <Attempts id={open} width={width} /> : null}
    </Box>
  );
}
