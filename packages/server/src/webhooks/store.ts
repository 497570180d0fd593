// Webhook rows as the contract shows them, and the secrets an endpoint signs with now.
import type { Selectable } from 'kysely';
import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '@portal/core';
import type { WebhookAttemptTable, WebhookDeliveryTable, WebhookEndpointTable } from '../db/schema';
import type { Secrets } from '../auth/secrets';

type EndpointRow = Selectable<WebhookEndpointTable>;

export const endpointView = (e: EndpointRow, t: number): WebhookEndpoint => ({
  stamp: e.stamp,
  client: e.client,
  name: e.name,
  url: e.url,
  events: e.events ? e.events.split(',') : [],
  state: e.state as WebhookEndpoint['state'],
  createdAt: Number(e.created_at),
  previousSecretUntil: e.previous_until !== null && Number(e.previous_until) > t ? Number(e.previous_until) : null,
  lastAttemptAt: e.last_attempt_at === null ? null : Number(e.last_attempt_at),
  lastStatus: e.last_status,
  failingSince: e.failing_since === null ? null : Number(e.failing_since),
});

export const deliveryView = (d: Selectable<WebhookDeliveryTable>): WebhookDelivery => ({
  stamp: d.stamp,
  webhook: d.endpoint,
  type: d.type,
  createdAt: Number(d.created_at),
  state: d.state as WebhookDelivery['state'],
  attempts: d.attempts,
  nextAttemptAt: d.state === 'pending' && d.next_at !== null ? Number(d.next_at) : null,
  lastAttemptAt: d.last_attempt_at === null ? null : Number(d.last_attempt_at),
  lastStatus: d.last_status,
  lastError: d.last_error,
});

export const attemptView = (a: Selectable<WebhookAttemptTable>): WebhookAttempt => ({
  at: Number(a.at),
  status: a.status,
  durationMs: a.duration_ms,
  answer: a.answer,
  error: a.error,
});

/** The secrets that sign now: the current one, and the one before a rotation for its 24 hours (if still readable). */
export function signingSecrets(secrets: Secrets, e: EndpointRow, t: number): string[] {
  const out = [secrets.decrypt(e.secret_enc)];
  if (e.previous_secret_enc && e.previous_until !== null && Number(e.previous_until) > t) {
    try {
      out.push(secrets.decrypt(e.previous_secret_enc));
    } catch {
      // Encrypted under a key this server no longer has: the current secret alone signs.
    }
  }
  return out;
}
