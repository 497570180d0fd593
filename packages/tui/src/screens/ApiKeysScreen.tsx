// API keys of a client: ID, installs, last installed; create (only while there is none), rename, remove, details.
import { Box } from 'ink';
import { MESSAGES, formatTime, screenPath, type ClientApiKey, loadFailure } from '@portal/core';
import { useApiKeys } from '@portal/core/react';
import { ListView } from '../components/ListView';
import { useLabel, useNav } from '../ui/context';

export default function ApiKeysScreen() {
  const nav = useNav();
  const clientId = nav.params.clientId!;
  const keys = useApiKeys(clientId);
  useLabel(clientId, keys.data?.client?.name);
  const list = keys.data?.keys;
  return (
    <Box flexDirection="column">
      <ListView<ClientApiKey>
        title="API Keys"
        rows={list}
        loading={keys.loading}
        empty={MESSAGES.noApiKeys}
        error={loadFailure(keys.error)}
        keyOf={(k) => k.clue}
        nameOf={(k) => k.name}
        cols={[
          { header: 'Name', keep: true, get: (k) => k.name },
          { header: 'ID', id: true, get: (k) => k.clue },
          { header: 'Installs', get: (k) => k.installs },
          { header: 'Last installed', get: (k) => formatTime(k.installedAt), at: (k) => k.installedAt },
        ]}
        onOpen={(k) => {
          nav.setLabel(k.clue, k.name);
          nav.go(screenPath('apikeyInfo', { clientId, apikeyId: k.clue }));
        }}
        rename={keys.rename}
        remove={keys.remove}
        // SPEC: create is offered only when the list is empty.
        create={keys.canCreate ? keys.create : undefined}
      />
    </Box>
  );
}
