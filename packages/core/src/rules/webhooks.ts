// Webhook rules (endpoints, events, deliveries): one place for the events a client can subscribe to, what an
// endpoint's URL must be, and how a delivery's state reads, used by the server's checks and every door alike.
// Deliveries follow the Standard Webhooks specification (standardwebhooks.com).

/** Every event an endpoint can subscribe to, with the sentence the doors show beside it. */
export const WEBHOOK_EVENT_LABELS = {
  'run.finished': 'A request finished (its result is ready)',
  'run.failed': 'A request failed',
  'upload.ready': 'An upload was analysed and is ready to use',
  'upload.failed': 'An upload could not be analysed',
  'quote.created': 'A quote was made for a shrink request',
  'quote.paid': 'A quote was paid (its request starts)',
  'member.joined': 'Someone joined the client',
} as const;
export type WebhookEventType = keyof typeof WEBHOOK_EVENT_LABELS;
export const WEBHOOK_EVENTS = Object.keys(WEBHOOK_EVENT_LABELS) as [WebhookEventType, ...WebhookEventType[]];
/** The event of `webhookTest` (any endpoint receives it, whatever its events): its data says it is a test. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** A signing secret's prefix (Standard Webhooks): `whsec_` and the base64 of its bytes. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** The headers of every delivery (Standard Webhooks). */
export const WEBHOOK_HEADERS = { id: 'webhook-id', timestamp: 'webhook-timestamp', signature: 'webhook-signature' } as const;
/** Hours the secret before a rotation keeps signing beside the new one (both signatures, space-separated). */
export const WEBHOOK_ROTATION_HOURS = 24;
/** Longest URL an endpoint may have, and the most endpoints one client may have. */
export const WEBHOOK_URL_MAX = 2048;
export const WEBHOOK_ENDPOINTS_MAX = 20;
/** The first bytes of a receiver's answer each attempt keeps. */
export const WEBHOOK_ANSWER_KEPT = 1024;
/** Days an endpoint may fail every attempt before it is paused and its owners mailed. */
export const WEBHOOK_PAUSE_AFTER_DAYS = 3;
/** Rows on one page of a delivery log unless `limit` says otherwise. */
export const WEBHOOK_DELIVERY_PAGE = 50;

export const WEBHOOK_MESSAGES = {
  ownersOnly: 'Only owners of this client can manage its webhooks.',
  url: `The URL must be an https:// address of at most ${WEBHOOK_URL_MAX} characters, without a user name or password.`,
  httpsOnly:
    'The URL must start with https:// (plain http:// is only for servers whose operator allows private addresses: PORTAL_WEBHOOK_ALLOW_PRIVATE=1).',
  events: `Pick at least one event: ${WEBHOOK_EVENTS.join(', ')}.`,
  unknownEvent: (name: string) => `${name} is not an event; the events are ${WEBHOOK_EVENTS.join(', ')}.`,
  tooMany: `A client can have at most ${WEBHOOK_ENDPOINTS_MAX} webhook endpoints: remove one first.`,
  notFound: 'Webhook endpoint not found',
  deliveryNotFound: 'Delivery not found',
  secretOnce: 'Copy the signing secret now: it is not shown again. Rotate it if it is lost.',
  rotated: `New signing secret made. The old one keeps signing beside it for ${WEBHOOK_ROTATION_HOURS} hours.`,
  paused: 'Endpoint paused: no new events go to it until it is resumed; deliveries already queued wait for it.',
  pausedFailing: `Paused by the portal: every delivery failed for ${WEBHOOK_PAUSE_AFTER_DAYS} days. Fix the receiver, then resume it.`,
  resumed: 'Endpoint resumed.',
  removed: 'Endpoint removed.',
  testSent: 'Test event queued: it appears in the delivery log within seconds.',
  redelivered: 'Delivery queued again.',
  noEndpoints: 'No webhook endpoints',
  noDeliveries: 'No deliveries yet',
  confirmRemove: (url: string) => `Remove the endpoint ${url}? Its events and delivery log are deleted.`,
  loadEndpoints: 'Failed to load webhook endpoints. Please try again.',
  loadDeliveries: 'Failed to load the delivery log. Please try again.',
} as const;

/** Why an endpoint's URL is refused (null when it is fine); `allowHttp` where the server allows private addresses. */
export function checkWebhookUrl(value: string | undefined | null, allowHttp = false): string | null {
  const v = (value ?? '').trim();
  if (!v || v.length > WEBHOOK_URL_MAX) return WEBHOOK_MESSAGES.url;
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    return WEBHOOK_MESSAGES.url;
  }
  if (url.username || url.password || !url.hostname) return WEBHOOK_MESSAGES.url;
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:') return allowHttp ? null : WEBHOOK_MESSAGES.httpsOnly;
  return WEBHOOK_MESSAGES.url;
}

/** The events of a comma-separated list (the CLI's `--events a,b`): the names, or the sentence that says what to fix. */
export function parseWebhookEvents(value: string): { events: WebhookEventType[] } | { error: string } {
  const names = [
    ...new Set(
      value
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean),
    ),
  ];
  if (names.length === 0) return { error: WEBHOOK_MESSAGES.events };
  const unknown = names.find((n) => !(n in WEBHOOK_EVENT_LABELS));
  if (unknown !== undefined) return { error: WEBHOOK_MESSAGES.unknownEvent(unknown) };
  return { events: names as WebhookEventType[] };
}

/** An endpoint's states: sending, paused by an owner, or paused by the portal after failing for days. */
export const WEBHOOK_STATES = ['active', 'paused', 'failing'] as const;
export type WebhookState = (typeof WEBHOOK_STATES)[number];
export const WEBHOOK_STATE_LABELS: Record<WebhookState, string> = {
  active: 'Active',
  paused: 'Paused',
  failing: 'Paused (failing)',
};

/** A delivery's states: waiting for its next attempt, answered with a 2xx, or given up after its last retry. */
export const DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** What the doors say of a delivery: its state, the last answer's status and how many attempts were made. */
export function formatDeliveryStatus(d: {
  state: DeliveryState;
  attempts: number;
  lastStatus?: number | null;
  lastError?: string | null;
}): string {
  const answer = d.lastStatus != null ? `HTTP ${d.lastStatus}` : d.lastError ? d.lastError : '';
  const tries = `${d.attempts} attempt${d.attempts === 1 ? '' : 's'}`;
  if (d.state === 'delivered') return `Delivered (${answer || 'HTTP 2xx'})`;
  if (d.state === 'failed') return `Failed after ${tries}${answer ? `: ${answer}` : ''}`;
  if (d.attempts === 0) return 'Pending';
  return `Retrying (${tries}${answer ? `, last: ${answer}` : ''})`;
}
