// Set a new password with the token from the URL (?token=...): same password rule and match check as sign-up.
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { TextField } from '@mui/material';
import { checkResetPassword, FIELD_HINTS, MESSAGES, PASSWORD_MAX } from '@portal/core';
import { PasswordFlowCard, usePasswordFlow } from '../components/PasswordFlowCard';

export default function ResetPasswordPage() {
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const flow = usePasswordFlow();

  const submit = async () => {
    const errs = checkResetPassword({ password, confirm });
    setErrors(errs);
    if (errs.password || errs.confirm) return;
    await flow.send((auth) => auth.resetFinish(token, password, confirm));
  };

  return (
    <PasswordFlowCard
      id="reset-title"
      title="Reset Password"
      flow={flow}
      onSubmit={submit}
      submit="Change password"
      doneMessage={MESSAGES.passwordChanged}
      doneLink="Login"
      spacing={1}
    >
      <TextField
        label="New password"
        type="password"
        name="password"
        autoComplete="new-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={!!errors.password}
        helperText={errors.password ?? FIELD_HINTS.password}
        required
        fullWidth
        autoFocus
        slotProps={{ htmlInput: { maxLength: PASSWORD_MAX } }}
      />
      <TextField
        label="Confirm password"
        type="password"
        name="confirm"
        autoComplete="new-password"
        value={confirm}
        onChange={(e) => setConfirm(e.target.value)}
        error={!!errors.confirm}
        helperText={errors.confirm ?? ' '}
        required
        fullWidth
        slotProps={{ htmlInput: { maxLength: PASSWORD_MAX } }}
      />
    </PasswordFlowCard>
  );
}
