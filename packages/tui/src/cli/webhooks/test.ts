// `portal webhooks test <id> [--event type]`: a test event, delivered like any other (see deliveries).
import { WEBHOOK_EVENTS, WEBHOOK_MESSAGES, WEBHOOK_TEST_EVENT } from '@portal/core';
import type { Session } from '../context';
import { usageError } from '../errors';
import type { VerbOptions } from '../verb';

const TYPES: readonly string[] = [WEBHOOK_TEST_EVENT, ...WEBHOOK_EVENTS];

export const options: VerbOptions = {
  usage: 'test <id>',
  summary: 'Send a test event to a webhook endpoint',
  flags: [{ flags: '--event <type>', description: `the event's type (default ${WEBHOOK_TEST_EVENT}); its data says it is a test` }],
  examples: ['portal webhooks test <id>', 'portal webhooks test <id> --event run.finished'],
};

export async function run(opts: { id: string; event?: string }, s: Session): Promise<void> {
  if (opts.event !== undefined && !TYPES.includes(opts.event))
    throw usageError(`--event must be one of ${TYPES.join(', ')}, got "${opts.event}"`);
  const api = await s.api();
  const { delivery } = await api.calls.webhookTest({ webhook: opts.id, type: opts.event as never });
  s.out.done(delivery, `${WEBHOOK_MESSAGES.testSent} (${delivery.stamp})`);
}
