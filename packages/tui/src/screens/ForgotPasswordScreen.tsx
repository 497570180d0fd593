// Forgot password: asks for the email and sends a reset link.
import { useState } from 'react';
import { Box, Text } from 'ink';
import { MESSAGES, checkEmail } from '@portal/core';
import { useAuth } from '@portal/core/react';
import { Form } from '../components/Form';
import { useNav } from '../ui/context';

export default function ForgotPasswordScreen() {
  const nav = useNav();
  const auth = useAuth();
  const [email, setEmail] = useState('');
  const [message, setMessage] = useState<{ text: string; error?: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const submit = async () => {
    const invalid = checkEmail(email);
    if (invalid) return setMessage({ text: invalid, error: true });
    setBusy(true);
    const failed = await auth.resetStart(email);
    setBusy(false);
    setMessage(failed ? { text: failed, error: true } : null);
    setDone(!failed);
  };
  if (done) {
    return (
      <Box flexDirection="column">
        <Text bold>Forgot Password</Text>
        <Text color="green">{MESSAGES.resetStarted}</Text>
        <Form
          fields={[]}
          values={{}}
          onChange={() => {}}
          submitLabel="I have a reset token"
          onSubmit={() => nav.go('/reset-password')}
          links={[{ label: 'Back to login', action: () => nav.reset('/') }]}
        />
      </Box>
    );
  }
  return (
    <Box flexDirection="column">
      <Text bold>Forgot Password</Text>
      <Text>Enter the email you signed up with and we will send you a link to set a new password.</Text>
      <Form
        fields={[{ key: 'email', label: 'Email' }]}
        values={{ email }}
        onChange={(_k, v) => setEmail(String(v))}
        submitLabel="Send reset link"
        onSubmit={() => void submit()}
        busy={busy}
        links={[
          { label: 'I have a reset token', action: () => nav.go('/reset-password') },
          { label: 'Back to login', action: () => nav.go('/') },
        ]}
        message={message}
      />
    </Box>
  );
}
