// An invitation's link (/invite?token=...): accept it signed in; someone signed out signs in or up first and comes back.
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { Button, Paper, Stack, Typography } from '@mui/material';
import { invitePath, screenPath, signInThen, signUpThen, tokenStatus } from '@portal/core';
import { useInvite } from '@portal/core/react';
import { tokenStore } from '../lib/session';
import { FormFailure } from '../components/FormFailure';

function Accept({ token }: { token: string }) {
  const navigate = useNavigate();
  const invite = useInvite(token);
  const accept = async () => {
    const client = await invite.accept();
    if (client) navigate(screenPath('members', { clientId: client.stamp }));
  };
  return (
    <Stack spacing={2}>
      <FormFailure message={invite.error} />
      <Button variant="contained" size="large" onClick={() => void accept()} disabled={invite.busy || !token}>
        Accept invitation
      </Button>
    </Stack>
  );
}

export default function InvitePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const status = tokenStatus(tokenStore.get(), Date.now(), null);
  const signedIn = status === 'ok' || status === 'refresh';
  const back = invitePath(token);
  return (
    <Paper component="section" aria-labelledby="invite-title" sx={{ p: { xs: 2.5, sm: 4 } }}>
      <Typography variant="h1" id="invite-title" sx={{ mb: 2 }}>
        Invitation
      </Typography>
      <Typography sx={{ mb: 2 }}>
        You are invited to join a client on the portal. Accept it signed in with the email address the invitation was sent to.
      </Typography>
      {signedIn ? (
        <Accept token={token} />
      ) : (
        <Stack direction="row" spacing={2}>
          <Button variant="contained" component={RouterLink} to={signInThen(back)}>
            Sign in to accept
          </Button>
          <Button variant="outlined" component={RouterLink} to={signUpThen(back)}>
            Create an account
          </Button>
        </Stack>
      )}
    </Paper>
  );
}
