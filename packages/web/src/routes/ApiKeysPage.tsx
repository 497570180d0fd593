// The client's API keys: ID, name, install count, last installed; Create only while the list is empty.
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { Button } from '@mui/material';
import { API_DOCS_PATH, MESSAGES, screenPath, type ClientApiKey } from '@portal/core';
import { ClientNotFound } from '../components/NotFound';
import { Page } from '../components/Page';
import { EntityTable, fromLoad } from '../components/EntityTable';
import { NameDialog } from '../components/Dialogs';
import { useListEditing } from '../components/useListEditing';
import { useApiKeys } from '@portal/core/react';
import { useCrumbNames } from '../layout/ChromeContext';
import { Time } from '../components/Time';

export default function ApiKeysPage() {
  const { clientId = '' } = useParams();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const keys = useApiKeys(clientId);
  useCrumbNames({ client: keys.data?.client?.name });
  const editing = useListEditing('API key', keys);
  const list = keys.data?.keys;
  if (keys.missing) return <ClientNotFound />;
  return (
    <Page
      title="API Keys"
      actions={
        <>
          <Button variant="outlined" href={API_DOCS_PATH} target="_blank" rel="noopener">
            API reference
          </Button>
          {keys.canCreate && (
            <Button variant="contained" onClick={() => setCreating(true)}>
              Create API Key
            </Button>
          )}
        </>
      }
    >
      <EntityTable<ClientApiKey>
        label="API keys"
        rows={list}
        {...fromLoad(keys)}
        rowKey={(k) => k.clue}
        idOf={(k) => k.clue}
        empty={MESSAGES.noApiKeys}
        emptyHint="An API key lets the Python client (pip install) reach this account's projects from your own machines."
        emptyAction={
          <Button variant="contained" onClick={() => setCreating(true)}>
            Create a key
          </Button>
        }
        columns={[
          { id: 'name', label: 'Name', value: (k) => k.name },
          { id: 'installs', label: 'Installs', value: (k) => k.installs, align: 'right' },
          {
            id: 'installedAt',
            label: 'Last installed',
            nowrap: true,
            value: (k) => k.installedAt ?? 0,
            render: (k) => <Time at={k.installedAt} />,
          },
        ]}
        actions={(k) => (
          <>
            <Button
              size="small"
              variant="contained"
              onClick={() => navigate(screenPath('apikeyInfo', { clientId, apikeyId: k.clue }))}
              aria-label={`Open ${k.name}`}
            >
              Open
            </Button>
            {editing.buttons({ id: k.clue, name: k.name })}
          </>
        )}
      />
      {editing.dialogs}
      <NameDialog
        open={creating}
        mode="create"
        title="Create API Key"
        onClose={() => setCreating(false)}
        onSubmit={(name) => keys.create(name, { inline: true })}
      />
    </Page>
  );
}
