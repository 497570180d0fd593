// The account page's security events: the user's own log (sign-ins from new addresses, password, email and two-factor
// changes), newest first, a page at a time, each a sentence from core's rule. core's useAccountEvents holds the calls.
import { Paper, Typography } from '@mui/material';
import { ACCOUNT_MESSAGES, loadFailure } from '@portal/core';
import { useAccountEvents, type AccountEventRow } from '@portal/core/react';
import { EntityTable } from './EntityTable';
import { Time } from './Time';
import { OlderNewer } from './OlderNewer';

export function SecurityEventsSection() {
  const events = useAccountEvents();
  return (
    <Paper component="section" aria-labelledby="events-title" sx={{ p: 2, mt: 3 }}>
      <Typography id="events-title" variant="h6" component="h2" sx={{ mb: 1 }}>
        Security events
      </Typography>
      <EntityTable<AccountEventRow>
        label="Security events"
        urlKey="events"
        rows={events.data?.entries}
        loading={events.loading && !events.data}
        error={loadFailure(events.error, ACCOUNT_MESSAGES.loadEvents)}
        onRetry={() => void events.reload()}
        filter={false}
        rowKey={(e) => `${e.at}:${e.action}:${e.target}:${e.detail}`}
        empty={`${ACCOUNT_MESSAGES.noEvents}.`}
        columns={[
          { id: 'at', label: 'When', nowrap: true, truncate: false, value: (e) => e.at, render: (e) => <Time at={e.at} /> },
          { id: 'label', label: 'Event', value: (e) => e.label, truncate: false },
        ]}
      />
      {(events.page > 1 || events.hasOlder) && <OlderNewer log={events} mt={1} />}
    </Paper>
  );
}
