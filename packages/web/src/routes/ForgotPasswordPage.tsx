// Request a password-reset link by email; on success SPEC's neutral notice, whether or not the email is known.
import { checkEmail } from '@portal/core';
import { BoundField } from '../components/BoundField';
import { PasswordFlowCard, usePasswordFlow } from '../components/PasswordFlowCard';

export default function ForgotPasswordPage() {
  const flow = usePasswordFlow({ email: '', problem: null as string | null });
  const { email, problem } = flow.fields;

  const submit = async () => {
    const err = checkEmail(email);
    flow.set({ problem: err });
    if (err) return;
    await flow.send((auth) => auth.resetStart(email));
  };

  return (
    <PasswordFlowCard page="forgot" flow={flow} onSubmit={submit}>
      <BoundField form={flow} name="email" label="Email" type="email" autoComplete="email" problem={problem} hint=" " required autoFocus />
    </PasswordFlowCard>
  );
}
