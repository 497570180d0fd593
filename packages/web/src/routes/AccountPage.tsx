// My Account: the user's client accounts (name, active, Open), from the permission list; then the account's security:
// two-factor sign-in, sessions, security events, password, email, export and deletion.
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, Chip } from '@mui/material';
import { accountOpenTarget, MESSAGES, type Client, loadFailure } from '@portal/core';
import { Page } from '../components/Page';
import { EntityTable } from '../components/EntityTable';
import { useChrome } from '../layout/ChromeContext';
import { TwoFactorSection } from '../components/TwoFactorSection';
import { SessionsSection } from '../components/SessionsSection';
import { SecurityEventsSection } from '../components/SecurityEventsSection';
import { DeleteSection, EmailSection, ExportSection, PasswordSection } from '../components/AccountSections';

export default function AccountPage() {
  const { clients, clientsLoading, clientsError, reloadClients } = useChrome();
  const navigate = useNavigate();
  // A password change ends the other sessions: the sessions section reads its list again (a new mount) after one.
  const [passwordChanges, setPasswordChanges] = useState(0);
  return (
    <Page title="My Account">
      <EntityTable<Client>
        label="Client accounts"
        rows={clients}
        loading={clientsLoading}
        error={loadFailure(clientsError, MESSAGES.fetchPermissions)}
        onRetry={() => void reloadClients()}
        rowKey={(c) => c.stamp}
        idOf={(c) => c.stamp}
        empty="No client accounts yet."
        initialSort={{ id: 'name', dir: 'asc' }}
        columns={[
          { id: 'name', label: 'Name', value: (c) => c.name },
          { id: 'plan', label: 'Plan', value: (c) => c.plan },
          {
            id: 'active',
            label: 'Active',
            value: (c) => (c.active ? 'On' : 'Off'),
            render: (c) => <Chip size="small" label={c.active ? 'On' : 'Off'} color={c.active ? 'success' : 'default'} />,
          },
        ]}
        actions={(c) => (
          <Button size="small" variant="contained" onClick={() => navigate(accountOpenTarget(c))} aria-label={`Open ${c.name}`}>
            Open
          </Button>
        )}
      />
      <TwoFactorSection />
      <SessionsSection key={passwordChanges} />
      <SecurityEventsSection />
      <PasswordSection onChanged={() => setPasswordChanges((n) => n + 1)} />
      <EmailSection />
      <ExportSection />
      <DeleteSection />
    </Page>
  );
}
