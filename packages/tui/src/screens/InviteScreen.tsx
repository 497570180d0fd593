// An invitation (/invite?token=...): Enter accepts it with the signed-in account, then opens the client's members.
import { Box, Text, useInput } from 'ink';
import { screenPath } from '@portal/core';
import { useApi, useInvite } from '@portal/core/react';
import { useNav } from '../ui/context';

export default function InviteScreen() {
  const nav = useNav();
  const api = useApi();
  const token = nav.query.get('token') ?? '';
  const invite = useInvite(token);
  const signedIn = !!api.tokens.get();
  useInput(
    (_input, key) => {
      if (!key.return || invite.busy) return;
      void invite.accept().then((client) => {
        if (client) nav.reset(screenPath('members', { clientId: client.stamp }));
      });
    },
    { isActive: signedIn && !nav.menuFocused },
  );
  return (
    <Box flexDirection="column">
      <Text bold>Invitation</Text>
      <Text>You are invited to join a client. Accept it signed in with the email address the invitation was sent to.</Text>
      {signedIn ? (
        <Text>Press Enter to accept.</Text>
      ) : (
        <Text color="yellow">Sign in first (portal login), then open the invitation again.</Text>
      )}
      {invite.busy ? <Text dimColor>Working…</Text> : null}
      {invite.error ? <Text color="red">{invite.error}</Text> : null}
    </Box>
  );
}
