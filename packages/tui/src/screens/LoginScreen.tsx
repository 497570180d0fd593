// Login: email and password; links to sign-up and forgot-password.
import { useState } from 'react';
import { Box, Text } from 'ink';
// Not the '@portal/core/react' index: through it the first frame's chunk would also load zod and core's schemas.
import { useAuth } from '@portal/core/react/useAuth';
import { Form } from '../components/Form';
import { useNav } from '../ui/context';

export default function LoginScreen() {
  const nav = useNav();
  const auth = useAuth();
  const [values, setValues] = useState<Record<string, string>>({ email: '', password: '' });
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    const failed = await auth.login(values.email, values.password);
    setBusy(false);
    setProblem(failed);
    if (!failed) nav.reset('/account');
  };
  return (
    <Box flexDirection="column">
      <Text bold>Login</Text>
      <Form
        fields={[
          { key: 'email', label: 'Email' },
          { key: 'password', label: 'Password', kind: 'password' },
        ]}
        values={values}
        onChange={(k, v) => setValues((s) => ({ ...s, [k]: String(v) }))}
        submitLabel="Login"
        onSubmit={() => void submit()}
        busy={busy}
        links={[
          { label: 'Create an account', action: () => nav.go('/signup') },
          { label: 'Forgot password?', action: () => nav.go('/forgot-password') },
        ]}
        message={problem ? { text: problem, error: true } : null}
      />
    </Box>
  );
}
