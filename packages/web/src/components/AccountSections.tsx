// The account page's changes, as GitHub's and Stripe's account security pages have them: change the password (every
// other session signed out), change the email (a confirmation link to the new address), export everything as one JSON
// file, and delete the account behind a dialog that asks for the password (and a code when two-factor sign-in is on).
// core's hooks (useAccount.ts) hold the rules and the calls; these render them.
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { Alert, Box, Button, DialogContentText, Paper, Stack, Typography } from '@mui/material';
import { ACCOUNT_MESSAGES, exactTime } from '@portal/core';
import { useAccountDelete, useAccountExport, useEmailChange, usePasswordChange, type AccountStep } from '@portal/core/react';
import { LightField, type LightFieldProps } from './LightField';
import { FormFailure } from './FormFailure';
import { DialogFrame } from './Dialogs';
import { saveFile } from '../lib/saveFile';
import { notify } from '../lib/notify';

/** One section of the page: a titled region (its title names it for screen readers). */
function Section({ id, title, danger, children }: { id: string; title: string; danger?: boolean; children: ReactNode }) {
  return (
    <Paper
      component="section"
      aria-labelledby={`${id}-title`}
      sx={{ p: 3, mt: 3, ...(danger ? { border: 1, borderColor: 'error.main' } : {}) }}
      variant={danger ? 'outlined' : 'elevation'}
    >
      <Typography variant="h2" id={`${id}-title`} sx={{ mb: 1, ...(danger ? { color: 'error.main' } : {}) }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

type Field = Omit<LightFieldProps, 'value' | 'onChange'> & { name: string };

/** A section's form: its fields' values kept here, cleared when `submit` (a core hook's step) succeeds. */
function StepForm({
  fields,
  step,
  submitLabel,
  submit,
  color,
}: {
  fields: Field[];
  step: AccountStep;
  submitLabel: string;
  submit(values: Record<string, string>): Promise<boolean>;
  color?: 'error';
}) {
  const empty = () => Object.fromEntries(fields.map((f) => [f.name, '']));
  const [values, setValues] = useState<Record<string, string>>(empty);
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (await submit(values)) setValues(empty());
  };
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack spacing={2} sx={{ maxWidth: 480 }}>
        <FormFailure message={step.problem} />
        {step.notice ? (
          // Long addresses wrap rather than scroll inside the alert on a phone.
          <Alert severity="success" sx={{ overflowWrap: 'anywhere' }}>
            {step.notice}
          </Alert>
        ) : null}
        {fields.map((f) => (
          <LightField key={f.name} {...f} value={values[f.name]} onChange={(e) => setValues((v) => ({ ...v, [f.name]: e.target.value }))} />
        ))}
        <Box>
          <Button type="submit" variant="contained" color={color} disabled={step.busy}>
            {submitLabel}
          </Button>
        </Box>
      </Stack>
    </form>
  );
}

const password = (name: string, label: string, autoComplete = 'current-password'): Field => ({
  name,
  label,
  type: 'password',
  autoComplete,
  required: true,
});

export function PasswordSection({ onChanged }: { onChanged?(): void }) {
  const pw = usePasswordChange();
  return (
    <Section id="password" title="Password">
      <Typography sx={{ mb: 2 }}>Changing your password signs out every other session of your account.</Typography>
      <StepForm
        step={pw}
        submitLabel="Change password"
        fields={[
          password('current', 'Current password'),
          password('password', 'New password', 'new-password'),
          password('confirmation', 'Confirm new password', 'new-password'),
        ]}
        submit={async (v) => {
          const ok = await pw.change({ current: v.current, password: v.password, confirmation: v.confirmation });
          if (ok) onChanged?.();
          return ok;
        }}
      />
    </Section>
  );
}

export function EmailSection() {
  const em = useEmailChange();
  const pending = em.account?.pendingEmail;
  return (
    <Section id="email" title="Email address">
      <Stack spacing={2}>
        <Typography sx={{ overflowWrap: 'anywhere' }}>
          Your email address: <strong>{em.account?.email ?? '…'}</strong>
        </Typography>
        {pending ? (
          <Alert
            severity="info"
            action={
              <Button color="inherit" size="small" disabled={em.busy} onClick={() => void em.cancel()}>
                Cancel change
              </Button>
            }
            sx={{ overflowWrap: 'anywhere' }}
          >
            Waiting for confirmation: {pending.email}. The link works until {exactTime(pending.expiresAt)}.
          </Alert>
        ) : null}
        <Typography>A confirmation link goes to the new address; your email address changes when it is opened.</Typography>
        <StepForm
          step={em}
          submitLabel="Send confirmation link"
          fields={[
            { name: 'email', label: 'New email address', type: 'email', autoComplete: 'email', required: true },
            password('password', 'Current password'),
          ]}
          submit={(v) => em.request({ email: v.email, password: v.password })}
        />
      </Stack>
    </Section>
  );
}

export function ExportSection() {
  const exp = useAccountExport();
  // The export made: downloaded as a file, then forgotten.
  const { file, done } = exp;
  useEffect(() => {
    if (!file) return;
    saveFile(file.name, file.text);
    done();
  }, [file, done]);
  return (
    <Section id="export" title="Export your data">
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Typography>
          Everything your account holds (projects, uploads&apos; details, requests, models, keys&apos; details, the audit log) as one JSON
          file. Secrets and tokens are never in it.
        </Typography>
        <FormFailure message={exp.problem} />
        {exp.notice ? <Alert severity="success">{exp.notice}</Alert> : null}
        <Button variant="outlined" disabled={exp.busy} onClick={() => void exp.start()}>
          {exp.busy ? 'Exporting…' : 'Export account data'}
        </Button>
      </Stack>
    </Section>
  );
}

export function DeleteSection() {
  const del = useAccountDelete();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (!del.deleted) return;
    notify(ACCOUNT_MESSAGES.deleted, 'success');
    navigate('/', { replace: true });
  }, [del.deleted, navigate]);
  return (
    <Section id="delete" title="Delete account" danger>
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Typography>
          Deleting your account signs you out everywhere and removes the clients only you belong to, with everything in them.
        </Typography>
        <Button variant="outlined" color="error" disabled={del.needsCode === undefined} onClick={() => setOpen(true)}>
          Delete account…
        </Button>
      </Stack>
      <DialogFrame
        open={open}
        onClose={() => setOpen(false)}
        titleId="delete-dialog-title"
        title="Delete your account"
        maxWidth="sm"
        actions={<Button onClick={() => setOpen(false)}>Cancel</Button>}
      >
        <DialogContentText sx={{ mb: 2 }}>{ACCOUNT_MESSAGES.deleteConfirm}</DialogContentText>
        <StepForm
          step={{ ...del, notice: null }}
          color="error"
          submitLabel="Delete my account"
          fields={[
            { ...password('password', 'Password'), autoFocus: true },
            ...(del.needsCode ? [{ name: 'code', label: 'Two-factor code', autoComplete: 'one-time-code', required: true }] : []),
          ]}
          submit={(v) => del.remove(del.needsCode ? { password: v.password, code: v.code } : { password: v.password })}
        />
      </DialogFrame>
    </Section>
  );
}
