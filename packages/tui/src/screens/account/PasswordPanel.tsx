// Change the password: the current one, the new one twice; every other session of the account is then signed out.
import { Box, Text } from 'ink';
import { usePasswordChange } from '@portal/core/react';
import { useHelp } from '../../ui/context';
import { Outcome, SectionForm, formHelp, useOpenForm } from './panel';

export function PasswordPanel() {
  const pw = usePasswordChange();
  const form = useOpenForm();
  useHelp(formHelp(form.open, 'change'));
  return (
    <Box flexDirection="column">
      <Text>Changing the password signs out every other session of your account.</Text>
      {form.open ? (
        <SectionForm
          fields={[
            { key: 'current', label: 'Current password', kind: 'password' },
            { key: 'password', label: 'New password', kind: 'password' },
            { key: 'confirmation', label: 'New password again', kind: 'password' },
          ]}
          submitLabel="Change password"
          busy={pw.busy}
          problem={pw.problem}
          submit={(v) => pw.change({ current: v.current, password: v.password, confirmation: v.confirmation })}
          onDone={form.close}
        />
      ) : (
        <>
          <Text dimColor>Press Enter to change it.</Text>
          <Outcome notice={pw.notice} />
        </>
      )}
    </Box>
  );
}
