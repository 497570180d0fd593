// Integration keys of a client: ID, service, token (masked), run count, last ran; rename, remove, create.
import { Box } from 'ink';
import { MESSAGES, formatTime, screenPath, type IntegrationKey, loadFailure } from '@portal/core';
import { useIntegrations } from '@portal/core/react';
import { ListView } from '../components/ListView';
import { useLabel, useNav } from '../ui/context';

export default function IntegrationsScreen() {
  const nav = useNav();
  const clientId = nav.params.clientId!;
  const list = useIntegrations(clientId);
  useLabel(clientId, list.data?.client?.name);
  return (
    <Box flexDirection="column">
      <ListView<IntegrationKey>
        title="Integrations"
        rows={list.data?.keys}
        loading={list.loading}
        empty={MESSAGES.integrationNotFound}
        error={loadFailure(list.error)}
        keyOf={(k) => k.clue}
        nameOf={(k) => k.name}
        cols={[
          { header: 'Name', keep: true, get: (k) => k.name },
          { header: 'ID', id: true, get: (k) => k.clue },
          { header: 'Service', get: (k) => k.service },
          { header: 'Token', get: (k) => k.token },
          { header: 'Requests', get: (k) => k.runs },
          { header: 'Last ran', get: (k) => formatTime(k.runAt), at: (k) => k.runAt },
        ]}
        rename={list.rename}
        remove={list.remove}
        onNew={() => nav.go(screenPath('createIntegration', { clientId }))}
      />
    </Box>
  );
}
