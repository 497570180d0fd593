// `portal webhooks deliveries <id>`: an endpoint's delivery log, newest first.
import { LIST_PAGE_MAX, WEBHOOK_DELIVERY_PAGE, WEBHOOK_MESSAGES } from '@portal/core';
import type { Session } from '../context';
import { integer } from '../common';
import { usageError } from '../errors';
import type { VerbOptions } from '../verb';
import { DELIVERY_COLUMNS } from './shared';

export const options: VerbOptions = {
  usage: 'deliveries <id>',
  summary: "An endpoint's deliveries, newest first: id, event, time, status (see delivery <id> for each attempt)",
  flags: [
    { flags: '--limit <n>', description: `print at most N (default ${WEBHOOK_DELIVERY_PAGE}, at most ${LIST_PAGE_MAX})` },
    { flags: '--cursor <next>', description: 'the page after this one: the next value of an earlier --json answer' },
  ],
  examples: ['portal webhooks deliveries <id>', 'portal webhooks deliveries <id> --json | jq -r ".[0].id"'],
};

export async function run(opts: { id: string; limit?: string; cursor?: string }, s: Session): Promise<void> {
  const limit = integer(opts.limit, '--limit');
  if (limit !== undefined && (limit < 1 || limit > LIST_PAGE_MAX)) throw usageError(`--limit must be from 1 to ${LIST_PAGE_MAX}`);
  const api = await s.api();
  const { delivery } = await api.calls.webhookDeliveries({ webhook: opts.id, limit, cursor: opts.cursor });
  s.out.list(delivery.list, DELIVERY_COLUMNS, WEBHOOK_MESSAGES.noDeliveries);
  if (delivery.next && !s.out.json) s.out.notice(`More: portal webhooks deliveries ${opts.id} --cursor ${delivery.next}`);
}
