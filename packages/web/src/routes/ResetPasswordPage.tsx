// Set a new password with the token from the URL (?token=...): same password rule and match check as sign-up.
import { useEffect, useState, type FormEvent } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { Alert, Button, Link, Paper, Stack, TextField, Typography } from '@mui/material';
import { checkResetPassword, MESSAGES, PASSWORD_MAX } from '@portal/core';
import { api, failureMessage } from '../lib/api';

export default function ResetPasswordPage() {
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    document.title = 'Reset Password · Portal';
  }, []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const errs = checkResetPassword({ password, confirm });
    setErrors(errs);
    if (errs.password || errs.confirm) return;
    if (!token) {
      setFailure(MESSAGES.invalidCredentials);
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      await api.calls.resetFinish({ password, token });
      setDone(true);
    } catch (x) {
      setFailure(failureMessage(x, MESSAGES.invalidCredentials));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper component="section" aria-labelledby="reset-title" sx={{ p: { xs: 2.5, sm: 4 } }}>
      <Typography variant="h1" id="reset-title" sx={{ mb: 2 }}>
        Reset Password
      </Typography>
      {done ? (
        <Stack spacing={2}>
          <Alert severity="success" role="status">
            {MESSAGES.passwordChanged}
          </Alert>
          <Link component={RouterLink} to="/">
            Login
          </Link>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack spacing={1}>
            {failure && (
              <Alert severity="error" role="alert">
                {failure}
              </Alert>
            )}
            <TextField label="New password" type="password" name="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} error={!!errors.password} helperText={errors.password ?? ' '} required fullWidth autoFocus slotProps={{ htmlInput: { maxLength: PASSWORD_MAX } }} />
            <TextField label="Confirm password" type="password" name="confirm" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} error={!!errors.confirm} helperText={errors.confirm ?? ' '} required fullWidth slotProps={{ htmlInput: { maxLength: PASSWORD_MAX } }} />
            <Button type="submit" variant="contained" size="large" disabled={busy}>
              Change password
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
