// The link mailed to a new email address (/account/email/confirm?token=...): Enter confirms it, signed in or not.
import { Box, Text, useInput } from 'ink';
import { useEmailConfirm } from '@portal/core/react';
import { useNav } from '../ui/context';

export default function EmailConfirmScreen() {
  const nav = useNav();
  const ec = useEmailConfirm(nav.query.get('token'));
  useInput(
    (_input, key) => {
      if (key.return && !ec.busy && !ec.email) void ec.confirm();
    },
    { isActive: !nav.menuFocused },
  );
  return (
    <Box flexDirection="column">
      <Text bold>Confirm your new email address</Text>
      {ec.email ? null : <Text>Press Enter to make this address your account&apos;s email address.</Text>}
      {ec.busy ? <Text dimColor>Working…</Text> : null}
      {ec.problem ? <Text color="red">{ec.problem}</Text> : null}
      {ec.notice ? <Text color="green">{ec.notice}</Text> : null}
    </Box>
  );
}
