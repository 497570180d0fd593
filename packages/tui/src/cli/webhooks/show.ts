// `portal webhooks show <id>`: one endpoint.
import type { Session } from '../context';
import type { VerbOptions } from '../verb';
import { endpointFields } from './shared';

export const options: VerbOptions = { usage: 'show <id>', summary: 'Show a webhook endpoint', examples: ['portal webhooks show <id>'] };

export async function run(opts: { id: string }, s: Session): Promise<void> {
  const api = await s.api();
  const { webhook } = await api.calls.webhookShow({ webhook: opts.id });
  s.out.object(webhook, endpointFields(webhook));
}
