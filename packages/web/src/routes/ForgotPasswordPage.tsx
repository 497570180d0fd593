// Request a password-reset link by email; on success SPEC's neutral notice, whether or not the email is known.
import { useState } from 'react';
import { TextField, Typography } from '@mui/material';
import { checkEmail, MESSAGES } from '@portal/core';
import { PasswordFlowCard, usePasswordFlow } from '../components/PasswordFlowCard';

export default function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const flow = usePasswordFlow();

  const submit = async () => {
    const err = checkEmail(email);
    setFieldError(err);
    if (err) return;
    await flow.send((auth) => auth.resetStart(email));
  };

  return (
    <PasswordFlowCard
      id="forgot-title"
      title="Forgot Password"
      flow={flow}
      onSubmit={submit}
      submit="Send reset link"
      doneMessage={MESSAGES.resetStarted}
      doneLink="Back to login"
      intro={<Typography variant="body2">Enter the email you signed up with and we will send you a link to set a new password.</Typography>}
    >
      <TextField
        label="Email"
        type="email"
        name="email"
        autoComplete="email"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={!!fieldError}
        helperText={fieldError ?? ' '}
        required
        fullWidth
        autoFocus
      />
    </PasswordFlowCard>
  );
}
