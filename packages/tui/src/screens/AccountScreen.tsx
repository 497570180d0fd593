// My Account: the user's client accounts (name, active; Open goes to API keys for Premise, else to projects), and the
// account's security in sections beside it: two-factor sign-in, sessions, password, email, export, deletion and the
// security events. ←→ (or 1-8) switch sections while no form is open; a section's form opens with Enter and closes
// with Esc.
import { useState } from 'react';
import { Box, Text, useInput } from 'ink';
import { MESSAGES, accountOpenTarget, type PermissionEntry, loadFailure } from '@portal/core';
import { useGetStarted, usePermissions } from '@portal/core/react';
import { ListView } from '../components/ListView';
import { useNav } from '../ui/context';
import { TwoFactorPanel } from './account/TwoFactorPanel';
import { SessionsPanel } from './account/SessionsPanel';
import { PasswordPanel } from './account/PasswordPanel';
import { EmailPanel } from './account/EmailPanel';
import { ExportPanel } from './account/ExportPanel';
import { DeletePanel } from './account/DeletePanel';
import { EventsPanel } from './account/EventsPanel';
import { StartPanel, startPanelRows, useStartStore } from './GetStartedScreen';

export const ACCOUNT_SECTIONS = ['Accounts', 'Two-factor', 'Sessions', 'Password', 'Email', 'Export', 'Delete', 'Events'] as const;
type Section = (typeof ACCOUNT_SECTIONS)[number];

/** The lines the frame and this screen take besides a section: header, help line, the section tabs, and a spare one. */
const CHROME_ROWS = 4;

export default function AccountScreen() {
  const nav = useNav();
  const [at, setAt] = useState(0);
  useInput(
    (input, key) => {
      // A form, a filter or a question has the keys: arrows move its cursor then.
      if (nav.capture !== 'none') return;
      const n = ACCOUNT_SECTIONS.length;
      if (key.rightArrow) setAt((i) => (i + 1) % n);
      else if (key.leftArrow) setAt((i) => (i + n - 1) % n);
      else if (/^[1-9]$/.test(input) && Number(input) <= n) setAt(Number(input) - 1);
    },
    { isActive: !nav.menuFocused },
  );
  const section: Section = ACCOUNT_SECTIONS[at];
  const rows = nav.size.rows - CHROME_ROWS;
  return (
    <Box flexDirection="column">
      <Tabs at={at} />
      {section === 'Accounts' ? (
        <Accounts />
      ) : section === 'Two-factor' ? (
        <TwoFactorPanel rows={rows} />
      ) : section === 'Sessions' ? (
        <SessionsPanel reserve={1} />
      ) : section === 'Password' ? (
        <PasswordPanel />
      ) : section === 'Email' ? (
        <EmailPanel />
      ) : section === 'Export' ? (
        <ExportPanel />
      ) : section === 'Events' ? (
        <EventsPanel reserve={1} />
      ) : (
        <DeletePanel />
      )}
    </Box>
  );
}

/** The sections, the shown one highlighted. */
function Tabs({ at }: { at: number }) {
  return (
    <Text wrap="truncate-end">
      {ACCOUNT_SECTIONS.map((name, i) => (
        <Text key={name}>
          {i ? <Text dimColor> │ </Text> : null}
          {i === at ? (
            <Text bold inverse>
              {name}
            </Text>
          ) : (
            <Text dimColor>{name}</Text>
          )}
        </Text>
      ))}
    </Text>
  );
}

function Accounts() {
  const nav = useNav();
  const perms = usePermissions();
  // A new account's path to its first result, below its accounts until it is done or put away.
  const path = useGetStarted(useStartStore());
  return (
    <>
      <ListView<PermissionEntry>
        title="My Account"
        rows={perms.data && [...perms.data].sort((a, b) => a.client.name.localeCompare(b.client.name))}
        loading={perms.loading}
        empty="No client accounts yet."
        error={loadFailure(perms.error, MESSAGES.fetchPermissions)}
        keyOf={(p) => p.client.stamp}
        nameOf={(p) => p.client.name}
        reserve={1 + startPanelRows(path)}
        cols={[
          { header: 'Name', keep: true, get: (p) => p.client.name },
          { header: 'Plan', get: (p) => p.client.plan },
          { header: 'Active', get: (p) => (p.client.active ? 'On' : 'Off') },
        ]}
        onOpen={(p) => {
          nav.setLabel(p.client.stamp, p.client.name);
          nav.io.remember?.('client', p.client.stamp);
          nav.go(accountOpenTarget(p.client));
        }}
      />
      <StartPanel path={path} />
    </>
  );
}
