// What the webhook verbs share: an endpoint's fields as printed, its events from --events, and the delivery columns.
import {
  formatDeliveryStatus,
  formatTime,
  lastDeliveryText,
  parseWebhookEvents,
  WEBHOOK_MESSAGES,
  webhookStateText,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '@portal/core';
import type { Column } from '../output';
import type { Verb } from '../verb';
import { usageError } from '../errors';

/** An endpoint as `show`, `create` and `rotate` print it (the secret only when just made). */
export function endpointFields(e: WebhookEndpoint, secret?: string): Array<readonly [string, string | number | null]> {
  return [
    ['Name', e.name],
    ['ID', e.stamp],
    ['URL', e.url],
    ['Events', e.events.join(', ')],
    ['State', webhookStateText(e)],
    ['Last delivery', lastDeliveryText(e)],
    ['Created', formatTime(e.createdAt)],
    ...(e.previousSecretUntil ? ([['Old secret signs until', formatTime(e.previousSecretUntil)]] as const) : []),
    ...(secret ? ([['Signing secret', secret]] as const) : []),
  ];
}

export const ENDPOINT_COLUMNS: readonly Column<WebhookEndpoint>[] = [
  { header: 'Name', get: (e) => e.name },
  { header: 'ID', get: (e) => e.stamp },
  { header: 'URL', get: (e) => e.url },
  { header: 'Events', get: (e) => e.events.join(',') },
  { header: 'State', get: (e) => webhookStateText(e) },
  { header: 'Last delivery', get: (e) => lastDeliveryText(e) },
];

export const DELIVERY_COLUMNS: readonly Column<WebhookDelivery>[] = [
  { header: 'ID', get: (d) => d.stamp },
  { header: 'Event', get: (d) => d.type },
  { header: 'Created', get: (d) => formatTime(d.createdAt) },
  { header: 'Status', get: (d) => formatDeliveryStatus(d) },
];

/** `--events a,b` as the call takes them; a name that is not an event is a usage error naming the events. */
export function eventsFlag(value: string): string[] {
  const parsed = parseWebhookEvents(value);
  if ('error' in parsed) throw usageError(parsed.error);
  return parsed.events;
}

/** `pause <id>` (0) and `resume <id>` (1): the endpoint's `active`, and the sentence that says what it means. */
export function activeVerb(active: 0 | 1): Verb<{ id: string }> {
  return {
    options:
      active === 0
        ? { usage: 'pause <id>', summary: 'Pause a webhook endpoint (its events wait for it)' }
        : { usage: 'resume <id>', summary: 'Resume a paused webhook endpoint (also one the portal paused)' },
    async run(opts, s) {
      const { webhook } = await (await s.api()).calls.webhookUpdate({ webhook: opts.id, active });
      s.out.done(webhook, active ? WEBHOOK_MESSAGES.resumed : WEBHOOK_MESSAGES.paused);
    },
  };
}
