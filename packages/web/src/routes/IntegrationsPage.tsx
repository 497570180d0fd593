// Integration keys of the client: ID, name, service, token (masked by the server), run count, last ran.
import { useNavigate, useParams } from 'react-router-dom';
import { Button } from '@mui/material';
import { formatTime, MESSAGES, screenPath, type IntegrationKey } from '@portal/core';
import { Page } from '../components/Page';
import { DataTable } from '../components/DataTable';
import { useListEditing } from '../components/useListEditing';
import { api } from '../lib/api';
import { useLoad } from '../lib/useLoad';
import { useCrumbNames } from '../layout/ChromeContext';

export default function IntegrationsPage() {
  const { clientId = '' } = useParams();
  const navigate = useNavigate();
  const keys = useLoad(async (signal) => {
    const r = await api.calls.integrationList({ client: clientId }, { signal });
    return { client: r.client.list[0], keys: r.apikey.list.filter((k) => k.active === 1) };
  }, [clientId]);
  useCrumbNames({ client: keys.data?.client?.name });
  const editing = useListEditing({
    noun: 'integration',
    rename: (id, name) => api.calls.integrationRename({ apikey: id, name }),
    remove: (id) => api.calls.integrationRemove({ apikey: id, active: 0 }),
    after: keys.reload,
  });
  return (
    <Page
      title="Integrations"
      actions={
        <Button variant="contained" onClick={() => navigate(screenPath('createIntegration', { clientId }))}>
          Create Integration
        </Button>
      }
    >
      <DataTable<IntegrationKey>
        label="Integrations"
        rows={keys.data?.keys}
        loading={keys.loading}
        rowKey={(k) => k.clue}
        empty={MESSAGES.integrationNotFound}
        columns={[
          { id: 'clue', label: 'ID', value: (k) => k.clue },
          { id: 'name', label: 'Name', value: (k) => k.name },
          { id: 'service', label: 'Service', value: (k) => k.service },
          { id: 'token', label: 'Token', value: (k) => k.token, render: (k) => <code>{k.token}</code> },
          { id: 'runs', label: 'Runs', value: (k) => k.runs, align: 'right' },
          { id: 'runAt', label: 'Last ran', value: (k) => k.runAt ?? 0, render: (k) => formatTime(k.runAt) },
        ]}
        actions={(k) => editing.buttons({ id: k.clue, name: k.name })}
      />
      {editing.dialogs}
    </Page>
  );
}
