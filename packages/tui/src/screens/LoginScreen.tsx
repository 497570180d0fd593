// Login: email and password; links to sign-up and forgot-password.
import { useState } from 'react';
import { Box, Text } from 'ink';
// Not the '@portal/core/react' index: through it the first frame's chunk would also load zod and core's schemas.
import { useAuth } from '@portal/core/react/useAuth';
import { returnTo, signUpThen } from '@portal/core';
import { Form } from '../components/Form';
import { useNav } from '../ui/context';

export default function LoginScreen() {
  const nav = useNav();
  const auth = useAuth();
  // Where to go once signed in: the screen that asked for the sign-in (`/?next=PATH`), else My Account.
  const next = nav.query.get('next');
  const [values, setValues] = useState<Record<string, string>>({ email: '', password: '' });
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Two-factor sign-in: after the password, a second step asks for the code.
  // The login answers the sentence that asks for it (core's), shown above the code field.
  const [otpStep, setOtpStep] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const submit = async () => {
    setBusy(true);
    const failed = otpStep ? await auth.loginOtp(code) : await auth.login(values.email, values.password);
    setBusy(false);
    if (!otpStep && auth.otpPending()) {
      setOtpStep(failed);
      return;
    }
    setProblem(failed);
    if (!failed) nav.reset(returnTo(next));
  };
  if (otpStep)
    return (
      <Box flexDirection="column">
        <Text bold>Login</Text>
        <Text>{otpStep}</Text>
        <Form
          fields={[{ key: 'code', label: 'Two-factor code' }]}
          values={{ code }}
          onChange={(_k, v) => setCode(String(v))}
          submitLabel="Verify"
          onSubmit={() => void submit()}
          busy={busy}
          message={problem ? { text: problem, error: true } : null}
        />
      </Box>
    );
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
          { label: 'Create an account', action: () => nav.go(next ? signUpThen(returnTo(next)) : '/signup') },
          { label: 'Forgot password?', action: () => nav.go('/forgot-password') },
        ]}
        message={problem ? { text: problem, error: true } : null}
      />
    </Box>
  );
}
