// `portal webhooks list`: the account's endpoints (owners).
import { WEBHOOK_MESSAGES, type WebhookEndpoint } from '@portal/core';
import { listVerb } from '../shared/list';
import { ENDPOINT_COLUMNS } from './shared';

export const { options, run } = listVerb<WebhookEndpoint>({
  summary: 'List webhook endpoints: name, id, URL, events, state, last delivery',
  examples: ['portal webhooks list', 'portal webhooks list --json | jq -r ".[] | select(.status != \\"active\\") | .id"'],
  rows: async (_opts, s) => {
    const client = await s.client();
    return (await (await s.api()).calls.webhookList({ client: client.stamp })).webhook.list;
  },
  columns: ENDPOINT_COLUMNS,
  empty: WEBHOOK_MESSAGES.noEndpoints,
});
