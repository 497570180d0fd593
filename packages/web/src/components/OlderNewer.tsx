// Newer, the page number and Older under a log read newest first a page at a time (the audit log, security events).
import { Button, Stack, Typography } from '@mui/material';
import type { LogPages } from '@portal/core/react';

export function OlderNewer({ log, mt = 2 }: { log: LogPages; mt?: number }) {
  return (
    <Stack direction="row" spacing={1} sx={{ mt, alignItems: 'center', justifyContent: 'flex-end' }}>
      <Button onClick={log.newer} disabled={log.page <= 1}>
        Newer
      </Button>
      <Typography variant="body2">Page {log.page}</Typography>
      <Button onClick={log.older} disabled={!log.hasOlder}>
        Older
      </Button>
    </Stack>
  );
}
