// An address of no screen (a typo, an old bookmark): a page that says so and leads back, in place of the API's answer.
import { useEffect } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Button, Paper, Typography } from '@mui/material';
import { tokenStatus } from '@portal/core';
import { tokenStore } from '../lib/session';

export const PAGE_NOT_FOUND = 'Page not found';

export default function UnknownPage() {
  useEffect(() => {
    document.title = `${PAGE_NOT_FOUND} · Portal`;
  }, []);
  const signedIn = tokenStatus(tokenStore.get(), Date.now(), null) === 'ok';
  return (
    <Paper component="section" aria-labelledby="page-title" sx={{ p: { xs: 2.5, sm: 4 } }}>
      <Typography variant="h1" id="page-title" sx={{ mb: 2 }}>
        {PAGE_NOT_FOUND}
      </Typography>
      <Typography role="status" sx={{ mb: 2 }}>
        No page of the portal has this address. The link may be old, or not quite right.
      </Typography>
      <Button variant="contained" component={RouterLink} to={signedIn ? '/account' : '/'}>
        {signedIn ? 'Go to My Account' : 'Go to Login'}
      </Button>
    </Paper>
  );
}
