// Change the email address: a confirmation link goes to the new address (the change takes effect when it is opened)
// and a notice to the old one; a change waiting for its link can be cancelled (c).
import { Box, Text, useInput } from 'ink';
import { exactTime } from '@portal/core';
import { useEmailChange } from '@portal/core/react';
import { useHelp, useNav } from '../../ui/context';
import { Outcome, SectionForm, formHelp, useOpenForm } from './panel';

export function EmailPanel() {
  const nav = useNav();
  const em = useEmailChange();
  const form = useOpenForm(undefined, !!em.account);
  const pending = em.account?.pendingEmail;
  useHelp(form.open ? formHelp(true, '') : `${formHelp(false, 'change')}${pending ? ' · c cancel the change' : ''}`);
  useInput(
    (input) => {
      if (input === 'c' && pending && !em.busy) void em.cancel();
    },
    { isActive: !form.open && !!pending && !nav.menuFocused && nav.capture === 'none' },
  );
  if (!em.account) return em.problem ? <Outcome problem={em.problem} /> : <Text dimColor>Loading…</Text>;
  return (
    <Box flexDirection="column">
      <Text>Email: {em.account.email}</Text>
      {pending ? (
        <Text color="yellow">{`Waiting for confirmation: ${pending.email} (the link works until ${exactTime(pending.expiresAt)})`}</Text>
      ) : null}
      {form.open ? (
        <SectionForm
          fields={[
            { key: 'email', label: 'New email' },
            { key: 'password', label: 'Current password', kind: 'password' },
          ]}
          submitLabel="Send confirmation link"
          busy={em.busy}
          problem={em.problem}
          submit={(v) => em.request({ email: v.email, password: v.password })}
          onDone={form.close}
        />
      ) : (
        <>
          <Text dimColor>Press Enter to change it: a confirmation link goes to the new address.</Text>
          <Outcome problem={em.problem} notice={em.notice} />
        </>
      )}
    </Box>
  );
}
