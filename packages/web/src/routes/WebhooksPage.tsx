// The client's webhook endpoints (owners only): add one (its signing secret shown once), send a test event, pause or
// resume, rotate the secret, rename, remove; the picked endpoint's delivery log below (kept in the URL: ?endpoint=).
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { Box, Button, Typography } from '@mui/material';
import { lastDeliveryText, WEBHOOK_MESSAGES, webhookEventsText, webhookStateText, type WebhookEndpoint } from '@portal/core';
import { useClient, useWebhooks } from '@portal/core/react';
import { ClientNotFound } from '../components/NotFound';
import { Page } from '../components/Page';
import { EntityTable, fromLoad, stampOf } from '../components/EntityTable';
import { ConfirmDialog, NameDialog } from '../components/Dialogs';
import { RowMenu } from '../components/useListEditing';
import { AddWebhookDialog } from '../components/webhooks/AddWebhookDialog';
import { SecretPanel } from '../components/webhooks/SecretPanel';
import { DeliveryLog } from '../components/webhooks/DeliveryLog';
import { useCrumbNames } from '../layout/ChromeContext';
import { useUrlParams } from '../lib/useUrlParams';

export default function WebhooksPage() {
  const { clientId = '' } = useParams();
  const hooks = useWebhooks(clientId);
  const { client } = useClient(clientId);
  useCrumbNames({ client: hooks.data?.client.name ?? client?.name });
  const { params, set } = useUrlParams();
  const [adding, setAdding] = useState(false);
  const [renaming, setRenaming] = useState<WebhookEndpoint | null>(null);
  const [removing, setRemoving] = useState<WebhookEndpoint | null>(null);
  const endpoints = hooks.data?.endpoints;
  const picked = endpoints?.find((e) => e.stamp === params.get('endpoint')) ?? null;
  const pick = (e: WebhookEndpoint | null) => set({ endpoint: e?.stamp ?? null }, false);
  if (hooks.missing) return <ClientNotFound />;
  return (
    <Page
      title="Webhooks"
      actions={
        hooks.data && (
          <Button variant="contained" onClick={() => setAdding(true)}>
            Add endpoint
          </Button>
        )
      }
    >
      {hooks.denied ? (
        <Typography role="status">{hooks.denied}</Typography>
      ) : (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            The portal sends a signed POST to each endpoint when one of its events happens (Standard Webhooks), and tries again for about a
            day when the endpoint does not answer 2xx.
          </Typography>
          {hooks.secret && <SecretPanel secret={hooks.secret} onDone={hooks.dismissSecret} />}
          <EntityTable<WebhookEndpoint>
            label="Webhook endpoints"
            rows={endpoints}
            {...fromLoad(hooks)}
            rowKey={stampOf}
            idOf={stampOf}
            empty={WEBHOOK_MESSAGES.noEndpoints}
            emptyHint="Add an endpoint to have the portal tell your server when a request finishes, an upload is ready, and more."
            columns={[
              { id: 'name', label: 'Name', value: (e) => e.name },
              { id: 'url', label: 'URL', truncate: true, minWidth: 160, value: (e) => e.url },
              { id: 'events', label: 'Events', priority: 'low', value: (e) => webhookEventsText(e.events) },
              { id: 'state', label: 'State', nowrap: true, value: (e) => webhookStateText(e) },
              { id: 'last', label: 'Last delivery', nowrap: true, priority: 'low', value: (e) => lastDeliveryText(e) },
            ]}
            actions={(e) => (
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
                <Button
                  size="small"
                  onClick={() => pick(picked?.stamp === e.stamp ? null : e)}
                  aria-pressed={picked?.stamp === e.stamp}
                  aria-label={`Deliveries of ${e.name}`}
                >
                  Deliveries
                </Button>
                <RowMenu
                  name={e.name}
                  items={[
                    { label: 'Send test event', run: () => void hooks.test(e.stamp) },
                    e.state === 'active'
                      ? { label: 'Pause', run: () => void hooks.setActive(e.stamp, false) }
                      : { label: 'Resume', run: () => void hooks.setActive(e.stamp, true) },
                    { label: 'Rotate secret', run: () => void hooks.rotate(e.stamp) },
                    { label: 'Rename', run: () => setRenaming(e) },
                    { label: 'Remove', danger: true, run: () => setRemoving(e) },
                  ]}
                />
              </Box>
            )}
          />
          {picked && <DeliveryLog key={picked.stamp} endpoint={picked} />}
        </>
      )}
      <AddWebhookDialog open={adding} onClose={() => setAdding(false)} onSubmit={(input) => hooks.create(input, { inline: true })} />
      <NameDialog
        open={!!renaming}
        title="Rename endpoint"
        mode="rename"
        initial={renaming?.name ?? ''}
        onClose={() => setRenaming(null)}
        onSubmit={(name) => hooks.rename(renaming!.stamp, name, { inline: true })}
      />
      <ConfirmDialog
        open={!!removing}
        title="Remove endpoint"
        text={removing ? WEBHOOK_MESSAGES.confirmRemove(removing.url) : ''}
        onClose={() => setRemoving(null)}
        onConfirm={async () => {
          if ((await hooks.remove(removing!.stamp)) === null && picked?.stamp === removing!.stamp) pick(null);
        }}
      />
    </Page>
  );
}
