// A key's installer command (Linux 64-bit), its token and a Python example; each copies with OSC 52. The token is
// masked (in the example too) until v reveals it, as the web's Reveal token does; the copy keys copy it whole.
import { useState } from 'react';
import { Box, Text, useInput } from 'ink';
import { MESSAGES, formatTime, installCommand, maskToken, pythonExample, printable } from '@portal/core';
import { useApiKeys, useCopy } from '@portal/core/react';
import { useLabel, useNav } from '../ui/context';

export default function ApiKeyInfoScreen() {
  const nav = useNav();
  const { clientId, apikeyId } = nav.params as { clientId: string; apikeyId: string };
  const keys = useApiKeys(clientId);
  const { copied, copy } = useCopy();
  const [revealed, setRevealed] = useState(false);
  const key = keys.data?.keys.find((k) => k.clue === apikeyId);
  useLabel(clientId, keys.data?.client?.name);
  useLabel(apikeyId, key?.name);
  const installer = key ? installCommand(nav.io.baseUrl, key.pack.linux64) : '';
  const example = key ? pythonExample(nav.io.baseUrl, key.token, clientId) : '';
  useInput(
    (input) => {
      if (!key) return;
      if (input === 'c') void copy('code', installer, (t) => nav.io.copy(t, 'the installer command'));
      else if (input === 't') void copy('token', key.token, (t) => nav.io.copy(t, 'the token'));
      else if (input === 'e') void copy('example', example, (t) => nav.io.copy(t, 'the Python example'));
      else if (input === 'v') setRevealed((r) => !r);
    },
    { isActive: !nav.menuFocused },
  );
  if (keys.loading && !keys.data) return <Text dimColor>Loading…</Text>;
  if (!key) return <Text>{MESSAGES.notFound}</Text>;
  const label = (what: 'code' | 'token' | 'example', k: string) => (
    <Text color={copied === what ? 'green' : 'cyan'}>[{copied === what ? 'Copied' : `${k} Copy`}]</Text>
  );
  // The example as tall as the terminal leaves room for (the chrome and the lines above take about 16 rows).
  const lines = (revealed ? example : pythonExample(nav.io.baseUrl, maskToken(key.token), clientId)).split('\n');
  const room = Math.max(3, nav.size.rows - 16);
  const shown = lines.length > room ? lines.slice(0, room - 1) : lines;
  const hidden = lines.length - shown.length;
  return (
    <Box flexDirection="column">
      <Text bold>{printable(key.name)}</Text>
      <Text>
        ID: {key.clue} · Installs: {key.installs} · Last installed: {formatTime(key.installedAt)}
      </Text>
      {/* Commands stay on one line (cut at the edge, never wrapped): a mouse copy of a wrapped line would break it,
          and the copy key gives the whole of it. */}
      <Text>Installer (Linux 64-bit) {label('code', 'c')}</Text>
      <Text wrap="truncate-end"> {installer}</Text>
      <Text>
        Token {label('token', 't')} <Text dimColor>{revealed ? 'v hides it' : 'v reveals it'}</Text>
      </Text>
      <Text wrap="truncate-end"> {revealed ? key.token : maskToken(key.token)}</Text>
      <Text>Python example {label('example', 'e')}</Text>
      <Box paddingLeft={2} flexDirection="column">
        {shown.map((l, i) => (
          <Text key={i} wrap="truncate-end">
            {l || ' '}
          </Text>
        ))}
        {hidden > 0 ? (
          <Text dimColor wrap="truncate-end">
            … {hidden} more lines: e copies the whole example, `portal keys show {key.clue}` prints it
          </Text>
        ) : null}
      </Box>
    </Box>
  );
}
