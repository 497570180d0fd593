// One endpoint's delivery log, newest first: each delivery's time, event, state and last answer, with Redeliver; its
// details (every attempt's time, status code, duration and first bytes of the answer, and the body sent) in a dialog.
import { useState } from 'react';
import { Box, Button, Table, TableBody, TableCell, TableRow, Typography } from '@mui/material';
import {
  answerPreview,
  answerText,
  durationText,
  formatDeliveryStatus,
  loadFailure,
  WEBHOOK_MESSAGES,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '@portal/core';
import { useWebhookDelivery, useWebhookLog } from '@portal/core/react';
import { HeadRow } from '../Cells';
import { DialogFrame } from '../Dialogs';
import { EntityTable, fromLoad, stampOf } from '../EntityTable';
import { OlderNewer } from '../OlderNewer';
import { Section } from '../Page';
import { Time } from '../Time';

function DeliveryDialog({ id, onClose, onRedeliver }: { id: string | null; onClose(): void; onRedeliver(id: string): void }) {
  const loaded = useWebhookDelivery(id);
  const d = loaded.data;
  return (
    <DialogFrame
      open={!!id}
      onClose={onClose}
      titleId="delivery-title"
      title={`Delivery ${d ? `of ${d.delivery.type}` : ''}`}
      maxWidth="md"
      actions={
        <>
          <Button onClick={onClose}>Close</Button>
          {id && (
            <Button variant="contained" onClick={() => onRedeliver(id)}>
              Redeliver
            </Button>
          )}
        </>
      }
    >
      {loaded.error && <Typography color="error">{loadFailure(loaded.error)}</Typography>}
      {d && (
        <>
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
            webhook-id <code>{d.delivery.stamp}</code> · {formatDeliveryStatus(d.delivery)}
          </Typography>
          <Box sx={{ overflowX: 'auto', my: 1 }}>
            <Table size="small" aria-label="Attempts">
              <HeadRow cells={['Time', 'Status', 'Duration', 'Answer']} right={['Duration']} />
              <TableBody>
                {d.attempts.length === 0 && (
                  <TableRow>
                    <TableCell colSpan={4}>No attempt yet</TableCell>
                  </TableRow>
                )}
                {d.attempts.map((a, i) => (
                  <TableRow key={i}>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      <Time at={a.at} />
                    </TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{answerText(a.status, a.error)}</TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      {durationText(a.durationMs)}
                    </TableCell>
                    <TableCell sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere', minWidth: 160 }}>
                      {a.answer ? answerPreview(a.answer, 200) : a.error || '(empty)'}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
          <Typography variant="subtitle2">Body sent</Typography>
          <Box
            component="pre"
            sx={{ m: 0, p: 1, bgcolor: '#11191d', color: '#e0f2f1', borderRadius: 1, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
          >
            {d.body}
          </Box>
        </>
      )}
    </DialogFrame>
  );
}

export function DeliveryLog({ endpoint }: { endpoint: WebhookEndpoint }) {
  const log = useWebhookLog(endpoint.stamp);
  const [open, setOpen] = useState<string | null>(null);
  return (
    <Section title={`Deliveries of ${endpoint.name}`}>
      <EntityTable<WebhookDelivery>
        urlKey="deliveries"
        label={`Deliveries of ${endpoint.name}`}
        rows={log.data?.deliveries}
        {...fromLoad(log)}
        rowKey={stampOf}
        empty={WEBHOOK_MESSAGES.noDeliveries}
        filter={false}
        columns={[
          { id: 'type', label: 'Event', value: (d) => d.type },
          { id: 'createdAt', label: 'Time', nowrap: true, value: (d) => d.createdAt, render: (d) => <Time at={d.createdAt} /> },
          { id: 'status', label: 'Status', nowrap: true, value: (d) => formatDeliveryStatus(d) },
          { id: 'attempts', label: 'Attempts', align: 'right', priority: 'low', value: (d) => d.attempts },
          { id: 'id', label: 'webhook-id', priority: 'low', value: (d) => d.stamp },
        ]}
        actions={(d) => (
          <Box sx={{ display: 'flex', gap: 0.5 }}>
            <Button size="small" onClick={() => setOpen(d.stamp)} aria-label={`Details of the ${d.type} delivery ${d.stamp}`}>
              Details
            </Button>
            <Button size="small" onClick={() => void log.redeliver(d.stamp)} aria-label={`Redeliver ${d.stamp}`}>
              Redeliver
            </Button>
          </Box>
        )}
      />
      <OlderNewer log={log} />
      <DeliveryDialog id={open} onClose={() => setOpen(null)} onRedeliver={(id) => void log.redeliver(id)} />
    </Section>
  );
}
