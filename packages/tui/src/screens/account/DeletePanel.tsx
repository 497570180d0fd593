// Delete the account: asks for the password, and a code when two-factor sign-in is on; refused while the account is
// the last owner of a client with other members (the server says what to do). Then the door goes to sign-in.
import { useEffect } from 'react';
import { Box, Text } from 'ink';
import { ACCOUNT_MESSAGES } from '@portal/core';
import { useAccountDelete, useNotify } from '@portal/core/react';
import { useHelp, useNav } from '../../ui/context';
import { Outcome, SectionForm, formHelp, useOpenForm } from './panel';

export function DeletePanel() {
  const nav = useNav();
  const notify = useNotify();
  const del = useAccountDelete();
  const form = useOpenForm(undefined, del.needsCode !== undefined);
  useHelp(formHelp(form.open, 'delete the account'));
  const { reset } = nav;
  useEffect(() => {
    if (!del.deleted) return;
    notify(ACCOUNT_MESSAGES.deleted, 'success');
    reset('/');
  }, [del.deleted, notify, reset]);
  return (
    <Box flexDirection="column">
      <Text>Deleting your account signs you out everywhere and removes the clients only you belong to, with everything in them.</Text>
      {form.open ? (
        <>
          <Text color="yellow">{ACCOUNT_MESSAGES.deleteConfirm}</Text>
          <SectionForm
            fields={[
              { key: 'password', label: 'Password', kind: 'password' },
              ...(del.needsCode ? [{ key: 'code', label: 'Two-factor code' }] : []),
            ]}
            submitLabel="Delete my account"
            busy={del.busy}
            problem={del.problem}
            submit={(v) => del.remove(del.needsCode ? { password: v.password, code: v.code } : { password: v.password })}
          />
        </>
      ) : (
        <>
          <Text dimColor>Press Enter to delete it.</Text>
          <Outcome problem={del.problem} />
        </>
      )}
    </Box>
  );
}
