// The side menu: My Account, the account (Projects only for Cloud or CloudPremise), the current key, project, run
// or quote, then Contact Support and Logout; Tab gives it the keyboard.
import { useState, type ReactNode } from 'react';
import { Box, Text, useInput } from 'ink';
import { printable, sidebar } from '@portal/core';
import { usePermissions } from '@portal/core/react';
import { MENU_WIDTH, type Nav } from './context';

type MenuItem = { label: string; heading?: boolean; action?: () => void; current?: boolean };

export default function Menu({ nav, focused, onLogout, onContact }: { nav: Nav; focused: boolean; onLogout(): void; onContact(): void }) {
  const perms = usePermissions();
  const client = perms.data?.find((p) => p.client.stamp === nav.params.clientId)?.client;
  const groups = sidebar(nav.params, {
    clientName: client?.name ?? (nav.params.clientId && nav.labels[nav.params.clientId]),
    choice: client?.choice,
    projectName: nav.params.projectId && nav.labels[nav.params.projectId],
    keyName: nav.params.apikeyId && nav.labels[nav.params.apikeyId],
    runName: nav.params.runId && nav.labels[nav.params.runId],
    quoteName: nav.params.quoteId && nav.labels[nav.params.quoteId],
  } as Parameters<typeof sidebar>[1]);
  const items: MenuItem[] = [];
  for (const g of groups) {
    // Titles and links carry names from the server (the account's, a project's): escaped as every table cell is.
    items.push({ label: printable(g.title), heading: true });
    for (const l of g.links) items.push({ label: printable(l.label), action: () => nav.go(l.path), current: l.path === nav.path });
  }
  items.push({ label: '', heading: true }, { label: 'Contact Support', action: onContact }, { label: 'Logout', action: onLogout });
  const selectable = items.map((it, i) => (it.action ? i : -1)).filter((i) => i >= 0);
  const [at, setAt] = useState(0);
  useInput(
    (_input, key) => {
      if (key.downArrow) setAt((a) => Math.min(selectable.length - 1, a + 1));
      else if (key.upArrow) setAt((a) => Math.max(0, a - 1));
      else if (key.return) items[selectable[Math.min(at, selectable.length - 1)]]?.action?.();
    },
    { isActive: focused },
  );
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={focused ? 'cyan' : 'gray'} paddingX={1} width={MENU_WIDTH}>
      {items.map((it, i): ReactNode => {
        if (it.heading)
          return (
            // A heading is a name (the client's, the project's, the request's): one line, cut at the edge, so a long
            // name cannot push the menu past the terminal's height; the screen beside it shows the name whole.
            <Text key={i} bold wrap="truncate-end">
              {it.label}
            </Text>
          );
        const selected = focused && selectable[Math.min(at, selectable.length - 1)] === i;
        return (
          <Text key={i} color={selected ? 'cyan' : it.current ? 'green' : undefined}>
            {selected ? '› ' : '  '}
            {it.label}
          </Text>
        );
      })}
    </Box>
  );
}
