// `portal webhooks rotate <id>`: a new signing secret, printed once; the old one keeps signing beside it for a while.
import { WEBHOOK_MESSAGES } from '@portal/core';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';
import { endpointFields } from './shared';

export const options: VerbOptions = {
  usage: 'rotate <id>',
  summary: 'Make a new signing secret (printed once); the old one still signs for 24 hours',
  examples: ['portal webhooks rotate <id> --json | jq -r .secret'],
};

export async function run(opts: { id: string }, s: Session): Promise<void> {
  const api = await s.api();
  const { webhook, secret } = await api.calls.webhookRotate({ webhook: opts.id });
  s.out.object({ ...webhook, secret }, endpointFields(webhook, secret));
  s.out.notice(WEBHOOK_MESSAGES.rotated);
}
