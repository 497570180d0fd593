// Login (SPEC section 2, route /): email and password, links to sign-up and password reset.
import { useEffect, useState, type FormEvent } from 'react';
import { Link as RouterLink, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { Button, Link, Paper, Stack, Typography } from '@mui/material';
import { LightField, type LightFieldProps } from '../components/LightField';
import { returnTo, signUpThen, tokenStatus } from '@portal/core';
// Not the '@portal/core/react' index: through it the first page's chunk would also load zod and core's schemas.
import { useAuth } from '@portal/core/react/useAuth';
import { tokenStore } from '../lib/session';
import { FormFailure } from '../components/FormFailure';

export default function LoginPage() {
  const navigate = useNavigate();
  // The failure is shown on the form (role alert), not notified as well.
  const auth = useAuth({ notifyFailures: false });
  // Where to go once signed in (an invitation link sends its visitors here first).
  const [params] = useSearchParams();
  const next = returnTo(params.get('next'));
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Two-factor sign-in: after the password, a second step asks for the code (core's sentence says so).
  const [otpStep, setOtpStep] = useState<string | null>(null);
  const [code, setCode] = useState('');

  useEffect(() => {
    document.title = 'Login · Portal';
  }, []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const failed = otpStep ? await auth.loginOtp(code) : await auth.login(email, password);
    setBusy(false);
    if (!otpStep && auth.otpPending()) setOtpStep(failed);
    else if (failed) setError(failed);
    else navigate(next);
  };

  // Someone still signed in has nothing to do here.
  const status = tokenStatus(tokenStore.get(), Date.now(), null);
  if (status === 'ok' || status === 'refresh') return <Navigate to={next} replace />;

  // One form for both steps: the password step's fields and links, or the code step's sentence and field.
  const fields: LightFieldProps[] = otpStep
    ? [{ label: 'Two-factor code', name: 'otp', autoComplete: 'one-time-code', value: code, onChange: (e) => setCode(e.target.value) }]
    : [
        { label: 'Email', type: 'email', name: 'email', autoComplete: 'email', value: email, onChange: (e) => setEmail(e.target.value) },
        {
          label: 'Password',
          type: 'password',
          name: 'password',
          autoComplete: 'current-password',
          value: password,
          onChange: (e) => setPassword(e.target.value),
        },
      ];
  return (
    <Paper component="section" aria-labelledby="login-title" sx={{ p: { xs: 2.5, sm: 4 } }}>
      <Typography variant="h1" id="login-title" sx={{ mb: 2 }}>
        Login
      </Typography>
      <form onSubmit={submit} noValidate>
        <Stack spacing={2}>
          <FormFailure message={error} />
          {otpStep ? <Typography>{otpStep}</Typography> : null}
          {fields.map((f, i) => (
            <LightField key={f.name} {...f} required autoFocus={i === 0} />
          ))}
          <Button type="submit" variant="contained" size="large" disabled={busy}>
            {otpStep ? (busy ? 'Verifying…' : 'Verify') : busy ? 'Signing in…' : 'Login'}
          </Button>
          {otpStep ? null : (
            <Stack direction="row" sx={{ justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
              <Link component={RouterLink} to={params.get('next') ? signUpThen(next) : '/signup'}>
                Create an account
              </Link>
              <Link component={RouterLink} to="/forgot-password">
                Forgot password?
              </Link>
            </Stack>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
