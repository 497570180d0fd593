// Request a password-reset link by email; on success SPEC's neutral notice, whether or not the email is known.
import { useEffect, useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Alert, Button, Link, Paper, Stack, TextField, Typography } from '@mui/material';
import { checkEmail, MESSAGES } from '@portal/core';
import { api, failureMessage } from '../lib/api';

export default function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    document.title = 'Forgot Password · Portal';
  }, []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const err = checkEmail(email);
    setFieldError(err);
    if (err) return;
    setBusy(true);
    setFailure(null);
    try {
      await api.calls.resetStart({ email: email.trim() });
      setDone(true);
    } catch (x) {
      setFailure(failureMessage(x, MESSAGES.invalidCredentials));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper component="section" aria-labelledby="forgot-title" sx={{ p: { xs: 2.5, sm: 4 } }}>
      <Typography variant="h1" id="forgot-title" sx={{ mb: 2 }}>
        Forgot Password
      </Typography>
      {done ? (
        <Stack spacing={2}>
          <Alert severity="success" role="status">
            {MESSAGES.resetStarted}
          </Alert>
          <Link component={RouterLink} to="/">
            Back to login
          </Link>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack spacing={2}>
            <Typography variant="body2">Enter the email you signed up with and we will send you a link to set a new password.</Typography>
            {failure && (
              <Alert severity="error" role="alert">
                {failure}
              </Alert>
            )}
            <TextField label="Email" type="email" name="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} error={!!fieldError} helperText={fieldError ?? ' '} required fullWidth autoFocus />
            <Button type="submit" variant="contained" size="large" disabled={busy}>
              Send reset link
            </Button>
            <Link component={RouterLink} to="/">
              Back to login
            </Link>
          </Stack>
        </form>
      )}
    </Paper>
  );
}
