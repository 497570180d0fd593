// `portal webhooks create --url URL --events a,b [--name N]`: a new endpoint; its signing secret is printed this once.
import { TITLE_MAX, WEBHOOK_EVENTS, WEBHOOK_MESSAGES, webhookInputProblem } from '@portal/core';
import type { Session } from '../context';
import { CliError, usageError } from '../errors';
import type { VerbOptions } from '../verb';
import { endpointFields, eventsFlag } from './shared';

export interface CreateOptions {
  url?: string;
  events?: string;
  name?: string;
}

export const options: VerbOptions = {
  usage: 'create',
  summary: 'Add a webhook endpoint; prints its signing secret once',
  flags: [
    { flags: '--url <url>', description: 'where to send the events (https://...)' },
    { flags: '--events <names>', description: `comma-separated: ${WEBHOOK_EVENTS.join(', ')}` },
    { flags: '--name <name>', description: `what it is for, ${TITLE_MAX} characters (default: the URL's host)` },
  ],
  examples: [
    'portal webhooks create --url https://example.com/hooks --events run.finished,run.failed',
    'portal webhooks create --url https://example.com/hooks --events upload.ready --json | jq -r .secret',
  ],
};

export async function run(opts: CreateOptions, s: Session): Promise<void> {
  const url = (await s.need(opts.url, '--url', 'Endpoint URL')).trim();
  const events = eventsFlag(await s.need(opts.events, '--events', `Events (${WEBHOOK_EVENTS.join(',')})`));
  const name = opts.name?.trim() || undefined;
  const problem = webhookInputProblem({ url, events, name });
  if (problem) throw problem === WEBHOOK_MESSAGES.url ? usageError(problem) : new CliError(problem);
  const client = await s.client();
  const api = await s.api();
  const { webhook, secret } = await api.calls.webhookCreate({ client: client.stamp, url, events: events as never, name });
  s.out.object({ ...webhook, secret }, endpointFields(webhook, secret));
  s.out.notice(WEBHOOK_MESSAGES.secretOnce);
}
