// The account page's sessions: where the account is signed in (created, last used, address, user agent), this session
// marked, End for any other and "End all other sessions". core's useSessions holds the calls.
import { Alert, Box, Button, Chip, Paper, Stack, Typography } from '@mui/material';
import { useSessions, type SessionRow } from '@portal/core/react';
import { Ellipsis } from './Cells';
import { EntityTable } from './EntityTable';
import { Time } from './Time';
import { createdColumn } from './table/columns';

export function SessionsSection() {
  const s = useSessions();
  const others = (s.list ?? []).filter((x) => !x.current).length;
  return (
    <Paper component="section" aria-labelledby="sessions-title" sx={{ p: 2, mt: 3 }}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Typography id="sessions-title" variant="h6" component="h2">
          Sessions
        </Typography>
        <Button color="error" disabled={s.busy || others === 0} onClick={() => void s.endOthers()}>
          End all other sessions
        </Button>
      </Stack>
      {s.problem && <Alert severity="error">{s.problem}</Alert>}
      <EntityTable<SessionRow>
        label="Sessions"
        rows={s.list}
        loading={s.list === undefined}
        filter={false}
        rowKey={(x) => x.id}
        empty="No sessions."
        columns={[
          {
            id: 'userAgent',
            label: 'User agent',
            value: (x) => x.userAgent ?? 'Unknown',
            render: (x) => (
              <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', minWidth: 0 }}>
                <Ellipsis text={x.userAgent ?? 'Unknown'} />
                {x.current && <Chip size="small" color="primary" label="This session" />}
              </Box>
            ),
          },
          { id: 'address', label: 'Address', value: (x) => x.address ?? 'Unknown', truncate: true },
          createdColumn(),
          { id: 'lastUsedAt', label: 'Last used', nowrap: true, value: (x) => x.lastUsedAt, render: (x) => <Time at={x.lastUsedAt} /> },
        ]}
        actions={(x) =>
          !x.current && (
            <Button size="small" disabled={s.busy} onClick={() => void s.end(x.id)} aria-label={`End session ${x.id}`}>
              End
            </Button>
          )
        }
      />
    </Paper>
  );
}
