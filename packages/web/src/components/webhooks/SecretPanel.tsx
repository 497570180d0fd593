// An endpoint's signing secret, shown this once after it is made or rotated, with Copy; gone once dismissed.
import { Alert, AlertTitle, Box, Button, Stack } from '@mui/material';
import { WEBHOOK_MESSAGES } from '@portal/core';
import { useCopy, type ShownSecret } from '@portal/core/react';

export function SecretPanel({ secret, onDone }: { secret: ShownSecret; onDone(): void }) {
  const { copied, copy } = useCopy();
  const done = copied === 'token';
  return (
    <Alert severity="warning" sx={{ mb: 2, '& .MuiAlert-message': { minWidth: 0, flex: 1 } }} role="region" aria-label="Signing secret">
      <AlertTitle sx={{ overflowWrap: 'anywhere' }}>
        {secret.rotated ? 'New signing secret' : 'Signing secret'} of {secret.name}
      </AlertTitle>
      {WEBHOOK_MESSAGES.secretOnce}
      <Box
        component="pre"
        data-secret=""
        sx={{ my: 1, p: 1, bgcolor: '#11191d', color: '#e0f2f1', borderRadius: 1, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
      >
        {secret.secret}
      </Box>
      <Stack direction="row" spacing={1}>
        <Button
          size="small"
          variant="contained"
          onClick={() => void copy('token', secret.secret, (t) => navigator.clipboard.writeText(t))}
          aria-label={done ? 'Signing secret copied' : 'Copy signing secret'}
        >
          {done ? 'Copied' : 'Copy'}
        </Button>
        <Button size="small" onClick={onDone}>
          Done
        </Button>
      </Stack>
    </Alert>
  );
}
