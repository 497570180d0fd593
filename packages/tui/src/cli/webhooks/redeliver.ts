// `portal webhooks redeliver <delivery>`: the same event again, with the same webhook-id.
import { WEBHOOK_MESSAGES } from '@portal/core';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'redeliver <delivery>',
  summary: 'Send a delivery again (same webhook-id, so receivers can tell)',
  examples: ['portal webhooks redeliver <delivery-id>'],
};

export async function run(opts: { delivery: string }, s: Session): Promise<void> {
  const api = await s.api();
  const { delivery } = await api.calls.webhookRedeliver({ delivery: opts.delivery });
  s.out.done(delivery, WEBHOOK_MESSAGES.redelivered);
}
