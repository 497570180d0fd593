// The account page's sessions: where the account is signed in (created, last used, address, user agent), this session
// marked, End for any other and "End all other sessions". core's useSessions holds the calls.
import { Alert, Box, Button, Chip, Paper, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { exactTime, relativeTime } from '@portal/core';
import { useSessions } from '@portal/core/react';

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
      {s.list === undefined ? (
        <Typography color="text.secondary">Loading sessions…</Typography>
      ) : (
        // On a phone the table scrolls inside its own focusable region, never the page sideways.
        <Box sx={{ overflowX: 'auto', maxWidth: '100%' }} tabIndex={0} role="region" aria-label="Sessions table">
          <Table size="small" aria-label="Sessions">
            <TableHead>
              <TableRow>
                <TableCell>User agent</TableCell>
                <TableCell>Address</TableCell>
                <TableCell>Created</TableCell>
                <TableCell>Last used</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {s.list.map((x) => (
                <TableRow key={x.id}>
                  <TableCell sx={{ wordBreak: 'break-word', minWidth: 160 }}>
                    {x.userAgent ?? 'Unknown'} {x.current && <Chip size="small" color="primary" label="This session" />}
                  </TableCell>
                  <TableCell>{x.address ?? 'Unknown'}</TableCell>
                  <TableCell title={exactTime(x.createdAt)}>{relativeTime(x.createdAt)}</TableCell>
                  <TableCell title={exactTime(x.lastUsedAt)}>{relativeTime(x.lastUsedAt)}</TableCell>
                  <TableCell align="right">
                    {!x.current && (
                      <Button size="small" disabled={s.busy} onClick={() => void s.end(x.id)} aria-label={`End session ${x.id}`}>
                        End
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
    </Paper>
  );
}
