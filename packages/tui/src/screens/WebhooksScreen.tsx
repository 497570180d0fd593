// The client's webhook endpoints (owners only): n add, Enter its delivery log, t test event, p pause or resume,
// k rotate the secret, r rename, d remove (after a confirmation); a new secret shows once (c copies it, x hides it).
import { useEffect, useState } from 'react';
import { Box, Text } from 'ink';
import { lastDeliveryText, loadFailure, WEBHOOK_MESSAGES, webhookStateText, type WebhookEndpoint } from '@portal/core';
import { useClient, useWebhooks } from '@portal/core/react';
import { ListView } from '../components/ListView';
import { useHelp, useLabel, useNav } from '../ui/context';
import { AddWebhookForm } from './webhooks/AddWebhookForm';
import { DeliveryLogView } from './webhooks/DeliveryLogView';

type Mode = { kind: 'list' } | { kind: 'add' } | { kind: 'log'; id: string };

export default function WebhooksScreen() {
  const nav = useNav();
  const clientId = nav.params.clientId!;
  const hooks = useWebhooks(clientId);
  const { client } = useClient(clientId);
  useLabel(clientId, hooks.data?.client.name ?? client?.name);
  const [mode, setMode] = useState<Mode>({ kind: 'list' });
  const { claimEscape } = nav;
  // Esc from the form or a log comes back to the endpoints, not to the screen before.
  useEffect(() => (mode.kind === 'list' ? undefined : claimEscape(() => setMode({ kind: 'list' }))), [mode.kind, claimEscape]);
  const secret = hooks.secret;
  useHelp(
    hooks.denied
      ? ''
      : `↑↓ move · Enter deliveries · n add · t test · p pause/resume · k rotate secret · r rename · d remove${secret ? ' · c copy secret · x hide it' : ''}`,
  );
  const endpoint = mode.kind === 'log' ? hooks.data?.endpoints.find((e) => e.stamp === mode.id) : undefined;

  if (mode.kind === 'add')
    return (
      <AddWebhookForm
        onCancel={() => setMode({ kind: 'list' })}
        onSubmit={async (input) => {
          const failed = await hooks.create(input, { inline: true });
          if (failed === null) setMode({ kind: 'list' });
          return failed;
        }}
      />
    );
  if (endpoint) return <DeliveryLogView endpoint={endpoint} onTest={() => void hooks.test(endpoint.stamp)} />;

  const width = nav.size.columns - nav.size.menu - 2;
  return (
    <Box flexDirection="column">
      <ListView<WebhookEndpoint>
        title="Webhooks"
        rows={hooks.denied ? [] : hooks.data?.endpoints}
        loading={hooks.loading}
        empty={WEBHOOK_MESSAGES.noEndpoints}
        error={hooks.denied ?? loadFailure(hooks.error)}
        keyOf={(e) => e.stamp}
        nameOf={(e) => e.name}
        reserve={secret ? 3 : 0}
        cols={[
          { header: 'Name', keep: true, get: (e) => e.name },
          { header: 'URL', get: (e) => e.url },
          { header: 'State', keep: true, get: (e) => webhookStateText(e) },
          { header: 'Last delivery', get: (e) => lastDeliveryText(e) },
        ]}
        onOpen={(e) => setMode({ kind: 'log', id: e.stamp })}
        onNew={hooks.data ? () => setMode({ kind: 'add' }) : undefined}
        rename={hooks.data ? hooks.rename : undefined}
        remove={hooks.data ? hooks.remove : undefined}
        onKey={(input, e) => {
          if (input === 'c' && secret) void nav.io.copy(secret.secret, 'the signing secret');
          else if (input === 'x' && secret) hooks.dismissSecret();
          else if (!e) return false;
          else if (input === 't') void hooks.test(e.stamp);
          else if (input === 'p') void hooks.setActive(e.stamp, e.state !== 'active');
          else if (input === 'k') void hooks.rotate(e.stamp);
          else return false;
          return true;
        }}
      />
      {secret ? (
        <Box flexDirection="column" marginTop={1} width={width}>
          <Text color="yellow" wrap="truncate-end">
            {secret.rotated ? 'New signing secret' : 'Signing secret'} of {secret.name}, shown once (c copy · x hide):
          </Text>
          <Text wrap="truncate-end">{secret.secret}</Text>
        </Box>
      ) : null}
    </Box>
  );
}
