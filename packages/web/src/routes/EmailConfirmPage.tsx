// The link mailed to a new email address (/account/email/confirm?token=...): a button confirms it, signed in or not
// (the link's token proves the address), then on to My Account or the login.
import { useEffect } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { Alert, Button, Paper, Stack, Typography } from '@mui/material';
import { tokenStatus } from '@portal/core';
import { useEmailConfirm } from '@portal/core/react';
import { tokenStore } from '../lib/session';
import { FormFailure } from '../components/FormFailure';

export default function EmailConfirmPage() {
  const [params] = useSearchParams();
  const ec = useEmailConfirm(params.get('token'));
  useEffect(() => {
    document.title = 'Confirm Email · Portal';
  }, []);
  const status = tokenStatus(tokenStore.get(), Date.now(), null);
  const signedIn = status === 'ok' || status === 'refresh';
  return (
    <Paper component="section" aria-labelledby="email-confirm-title" sx={{ p: { xs: 2.5, sm: 4 } }}>
      <Typography variant="h1" id="email-confirm-title" sx={{ mb: 2 }}>
        Confirm your new email address
      </Typography>
      <Stack spacing={2}>
        <FormFailure message={ec.problem} />
        {ec.notice ? (
          <>
            <Alert severity="success" sx={{ overflowWrap: 'anywhere' }}>
              {ec.notice}
            </Alert>
            <Button variant="contained" component={RouterLink} to={signedIn ? '/account' : '/'}>
              {signedIn ? 'Go to My Account' : 'Sign in'}
            </Button>
          </>
        ) : (
          <>
            <Typography>Confirm to make this address your account&apos;s email address.</Typography>
            <Button variant="contained" size="large" disabled={ec.busy} onClick={() => void ec.confirm()}>
              {ec.busy ? 'Confirming…' : 'Confirm email address'}
            </Button>
          </>
        )}
      </Stack>
    </Paper>
  );
}
