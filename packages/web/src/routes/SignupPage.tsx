// Sign-up (SPEC section 5): every field checked with core's rules, the privacy and terms checkbox required.
import { useEffect, useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { Button, Checkbox, FormControl, FormControlLabel, FormHelperText, Link, Paper, Stack, TextField, Typography } from '@mui/material';
import {
  checkSignup,
  CONTACT_PATH,
  COMPANY_MAX,
  FIELD_HINTS,
  PASSWORD_MAX,
  returnTo,
  screenPath,
  signInThen,
  USERNAME_MAX,
  type SignupInput,
} from '@portal/core';
import { useAuth } from '@portal/core/react';
import { FormFailure } from '../components/FormFailure';

type Field = keyof SignupInput;

const HINTS: Partial<Record<Field, string>> = {
  username: FIELD_HINTS.username,
  name: FIELD_HINTS.companyName,
  password: FIELD_HINTS.password,
};

export default function SignupPage() {
  const navigate = useNavigate();
  const auth = useAuth({ notifyFailures: false });
  // Where to go once signed up (an invitation link sends its visitors here first).
  const [params] = useSearchParams();
  // A new account without such a link lands on its Get started path.
  const next = returnTo(params.get('next'), screenPath('getStarted'));
  const [form, setForm] = useState<SignupInput>({ email: '', username: '', name: '', password: '', confirm: '', terms: false });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    document.title = 'Sign Up · Portal';
  }, []);

  const shown = (f: Field) => (submitted || touched[f] ? errors[f] : undefined);

  const update = <K extends Field>(k: K, v: SignupInput[K]) => {
    const next = { ...form, [k]: v };
    setForm(next);
    setErrors(checkSignup(next));
  };
  const blur = (f: Field) => () => {
    setTouched((t) => ({ ...t, [f]: true }));
    setErrors(checkSignup(form));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    const errs = checkSignup(form);
    setErrors(errs);
    if (Object.keys(errs).length > 0) return;
    setBusy(true);
    setFailure(null);
    const failed = await auth.signup(form);
    setBusy(false);
    if (failed) setFailure(failed);
    else navigate(next);
  };

  const text = (f: Exclude<Field, 'terms'>, label: string, props: Record<string, unknown> = {}) => (
    <TextField
      label={label}
      name={f}
      value={form[f]}
      onChange={(e) => update(f, e.target.value)}
      onBlur={blur(f)}
      error={!!shown(f)}
      // The rule before anything is sent; SPEC's message in its place once the field is wrong.
      helperText={shown(f) ?? HINTS[f] ?? ' '}
      required
      fullWidth
      {...props}
    />
  );

  return (
    <Paper component="section" aria-labelledby="signup-title" sx={{ p: { xs: 2.5, sm: 4 } }}>
      <Typography variant="h1" id="signup-title" sx={{ mb: 2 }}>
        Sign Up
      </Typography>
      <form onSubmit={submit} noValidate>
        <Stack spacing={1}>
          <FormFailure message={failure} />
          {text('email', 'Email', { type: 'email', autoComplete: 'email', autoFocus: true })}
          {text('username', 'Username', { autoComplete: 'username', slotProps: { htmlInput: { maxLength: USERNAME_MAX } } })}
          {text('name', 'Company name', { autoComplete: 'organization', slotProps: { htmlInput: { maxLength: COMPANY_MAX } } })}
          {text('password', 'Password', {
            type: 'password',
            autoComplete: 'new-password',
            slotProps: { htmlInput: { maxLength: PASSWORD_MAX } },
          })}
          {text('confirm', 'Confirm password', {
            type: 'password',
            autoComplete: 'new-password',
            slotProps: { htmlInput: { maxLength: PASSWORD_MAX } },
          })}
          <FormControl error={!!shown('terms')}>
            <FormControlLabel
              control={
                <Checkbox
                  checked={form.terms}
                  onChange={(e) => {
                    update('terms', e.target.checked);
                    setTouched((t) => ({ ...t, terms: true }));
                  }}
                  name="terms"
                />
              }
              label={
                <span>
                  I agree to the{' '}
                  <Link href={CONTACT_PATH} target="_blank" rel="noopener">
                    privacy policy
                  </Link>{' '}
                  and{' '}
                  <Link href={CONTACT_PATH} target="_blank" rel="noopener">
                    terms of service
                  </Link>
                </span>
              }
            />
            <FormHelperText>{shown('terms') ?? ' '}</FormHelperText>
          </FormControl>
          <Button type="submit" variant="contained" size="large" disabled={busy}>
            {busy ? 'Signing up…' : 'Sign Up'}
          </Button>
          <Typography variant="body2">
            Already have an account?{' '}
            <Link component={RouterLink} to={params.get('next') ? signInThen(next) : '/'}>
              Login
            </Link>
          </Typography>
        </Stack>
      </form>
    </Paper>
  );
}
