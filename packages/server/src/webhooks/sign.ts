// Signing per Standard Webhooks with its maintained library: `whsec_` secrets, `v1,<base64 HMAC-SHA256>` over
// `id.timestamp.body`; after a rotation the previous secret signs beside the new one (space-separated signatures).
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { WEBHOOK_SECRET_PREFIX } from '@portal/core';

/** A new signing secret: 24 random bytes. */
export const newWebhookSecret = () => WEBHOOK_SECRET_PREFIX + randomBytes(24).toString('base64');

/** The webhook-signature header: one `v1,...` per secret, space-separated. */
export function signatureHeader(secrets: readonly string[], id: string, at: Date, body: string): string {
  return secrets.map((s) => new Webhook(s).sign(id, at, body)).join(' ');
}
