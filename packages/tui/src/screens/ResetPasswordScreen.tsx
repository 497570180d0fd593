// Reset password: the token from the email's link authorises a new password (same rules as sign-up).
import { useState } from 'react';
import { Box, Text } from 'ink';
import { MESSAGES, checkResetPassword, resetTokenFrom } from '@portal/core';
import { useAuth } from '@portal/core/react';
import { Form } from '../components/Form';
import { useNav } from '../ui/context';

export default function ResetPasswordScreen() {
  const nav = useNav();
  const auth = useAuth();
  const [values, setValues] = useState({ token: nav.query.get('token') ?? '', password: '', confirm: '' });
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [message, setMessage] = useState<{ text: string; error?: boolean } | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const fieldErrors: Record<string, string | undefined> = checkResetPassword(values);
    setErrors(fieldErrors);
    if (Object.values(fieldErrors).some(Boolean)) return;
    // As on the web: no token from the email is a failed reset (SPEC: 'Invalid credentials').
    const token = resetTokenFrom(values.token);
    if (!token) return setMessage({ text: MESSAGES.invalidCredentials, error: true });
    setBusy(true);
    const failed = await auth.resetFinish(token, values.password, values.confirm);
    setBusy(false);
    setDone(!failed);
    setMessage(failed ? { text: failed, error: true } : { text: MESSAGES.passwordChanged });
  };
  return (
    <Box flexDirection="column">
      <Text bold>Reset Password</Text>
      <Form
        fields={[
          { key: 'token', label: 'Link or token from the email' },
          { key: 'password', label: 'New password', kind: 'password' },
          { key: 'confirm', label: 'Confirm password', kind: 'password' },
        ]}
        values={values}
        onChange={(k, v) => setValues((s) => ({ ...s, [k]: String(v) }))}
        errors={errors}
        submitLabel="Change password"
        onSubmit={() => void submit()}
        busy={busy}
        links={[{ label: done ? 'Login' : 'Back to login', action: () => nav.reset('/') }]}
        message={message}
      />
    </Box>
  );
}
