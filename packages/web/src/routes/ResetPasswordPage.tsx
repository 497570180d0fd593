// Set a new password with the token from the URL (?token=...): same password rule and match check as sign-up.
import { useSearchParams } from 'react-router-dom';
import { checkResetPassword, FIELD_HINTS, PASSWORD_MAX } from '@portal/core';
import { BoundField } from '../components/BoundField';
import { PasswordFlowCard, usePasswordFlow } from '../components/PasswordFlowCard';

export default function ResetPasswordPage() {
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const flow = usePasswordFlow({ password: '', confirm: '', problems: {} as ReturnType<typeof checkResetPassword> });
  const { password, confirm, problems } = flow.fields;

  const submit = async () => {
    const errs = checkResetPassword({ password, confirm });
    flow.set({ problems: errs });
    if (errs.password || errs.confirm) return;
    await flow.send((auth) => auth.resetFinish(token, password, confirm));
  };

  // Both fields take a new password: the browser offers to make one, and neither takes more than the rule allows.
  const newPassword = { type: 'password', autoComplete: 'new-password', maxLength: PASSWORD_MAX, required: true } as const;
  return (
    <PasswordFlowCard page="reset" flow={flow} onSubmit={submit}>
      <BoundField
        form={flow}
        name="password"
        label="New password"
        {...newPassword}
        problem={problems.password}
        hint={FIELD_HINTS.password}
        autoFocus
      />
      <BoundField form={flow} name="confirm" label="Confirm password" {...newPassword} problem={problems.confirm} hint=" " />
    </PasswordFlowCard>
  );
}
