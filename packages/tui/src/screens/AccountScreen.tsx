// My Account: the user's client accounts (name, active); Open goes to API keys for Premise, else to projects.
import { Box } from 'ink';
import { MESSAGES, accountOpenTarget, type PermissionEntry, loadFailure } from '@portal/core';
import { usePermissions } from '@portal/core/react';
import { ListView } from '../components/ListView';
import { useNav } from '../ui/context';

export default function AccountScreen() {
  const nav = useNav();
  const perms = usePermissions();
  return (
    <Box flexDirection="column">
      <ListView<PermissionEntry>
        title="My Account"
        rows={perms.data && [...perms.data].sort((a, b) => a.client.name.localeCompare(b.client.name))}
        loading={perms.loading}
        empty="No client accounts yet."
        error={loadFailure(perms.error, MESSAGES.fetchPermissions)}
        keyOf={(p) => p.client.stamp}
        nameOf={(p) => p.client.name}
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
    </Box>
  );
}
