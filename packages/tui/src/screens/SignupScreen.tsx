// Sign-up: email, username, company name, password and confirmation, and the terms; checked by core's rules.
import { useState } from 'react';
import { Box, Text } from 'ink';
import { CONTACT_PATH, checkSignup, returnTo, signInThen, type SignupInput } from '@portal/core';
import { useAuth } from '@portal/core/react';
import { Form } from '../components/Form';
import { useNav } from '../ui/context';

export default function SignupScreen() {
  const nav = useNav();
  const auth = useAuth();
  // Where to go once signed up: the screen that asked for the sign-in (`/signup?next=PATH`), else My Account.
  const next = nav.query.get('next');
  const [values, setValues] = useState<SignupInput>({ email: '', username: '', name: '', password: '', confirm: '', terms: false });
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const fieldErrors = checkSignup(values);
    setErrors(fieldErrors);
    if (Object.keys(fieldErrors).length) return;
    setBusy(true);
    const failed = await auth.signup(values);
    setBusy(false);
    setProblem(failed);
    if (!failed) nav.reset(returnTo(next));
  };
  return (
    <Box flexDirection="column">
      <Text bold>Sign Up</Text>
      <Form
        fields={[
          { key: 'email', label: 'Email' },
          { key: 'username', label: 'Username' },
          { key: 'name', label: 'Company name' },
          { key: 'password', label: 'Password', kind: 'password' },
          { key: 'confirm', label: 'Confirm password', kind: 'password' },
          { key: 'terms', label: 'I agree to the privacy policy and terms of service', kind: 'checkbox' },
        ]}
        values={values as unknown as Record<string, string | boolean>}
        onChange={(k, v) => setValues((s) => ({ ...s, [k]: v }))}
        errors={errors}
        submitLabel="Sign Up"
        onSubmit={() => void submit()}
        busy={busy}
        links={[{ label: 'Already have an account? Login', action: () => nav.go(next ? signInThen(returnTo(next)) : '/') }]}
        message={problem ? { text: problem, error: true } : null}
      >
        <Text dimColor>
          Privacy policy and terms of service: {nav.io.baseUrl}
          {CONTACT_PATH}
        </Text>
      </Form>
    </Box>
  );
}
