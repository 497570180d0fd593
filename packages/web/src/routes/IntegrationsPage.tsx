// Integration keys of the client: ID, name, service, token (masked by the server), run count, last ran.
import { useNavigate, useParams } from 'react-router-dom';
import { Button } from '@mui/material';
import { MESSAGES, screenPath, type IntegrationKey } from '@portal/core';
import { ClientNotFound } from '../components/NotFound';
import { Page } from '../components/Page';
import { EntityTable, fromLoad } from '../components/EntityTable';
import { useListEditing } from '../components/useListEditing';
import { useIntegrations } from '@portal/core/react';
import { useCrumbNames } from '../layout/ChromeContext';
import { Time } from '../components/Time';

export default function IntegrationsPage() {
  const { clientId = '' } = useParams();
  const navigate = useNavigate();
  const keys = useIntegrations(clientId);
  useCrumbNames({ client: keys.data?.client?.name });
  const editing = useListEditing('integration', keys);
  if (keys.missing) return <ClientNotFound />;
  return (
    <Page
      title="Integrations"
      actions={
        keys.data && (
          <Button variant="contained" onClick={() => navigate(screenPath('createIntegration', { clientId }))}>
            Create Integration
          </Button>
        )
      }
    >
      <EntityTable<IntegrationKey>
        label="Integrations"
        rows={keys.data?.keys}
        {...fromLoad(keys)}
        rowKey={(k) => k.clue}
        idOf={(k) => k.clue}
        empty={MESSAGES.integrationNotFound}
        columns={[
          { id: 'name', label: 'Name', value: (k) => k.name },
          { id: 'service', label: 'Service', value: (k) => k.service },
          { id: 'token', label: 'Token', value: (k) => k.token, render: (k) => <code>{k.token}</code> },
          { id: 'runs', label: 'Runs', value: (k) => k.runs, align: 'right' },
          { id: 'runAt', label: 'Last ran', nowrap: true, value: (k) => k.runAt ?? 0, render: (k) => <Time at={k.runAt} /> },
        ]}
        actions={(k) => editing.buttons({ id: k.clue, name: k.name })}
      />
      {editing.dialogs}
    </Page>
  );
}
