// The webhooks screen's hooks: a client's endpoints with their actions (the signing secret held to be shown once),
// one endpoint's delivery log a page at a time, and one delivery's attempts. Owners only: the server refuses others,
// and the refusal's sentence is what they see.
import { useCallback, useState } from 'react';
import type { Client, WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '../contract';
import { WEBHOOK_DELIVERY_PAGE, WEBHOOK_MESSAGES } from '../rules/webhooks';
import { webhookEventsOf, webhookInputProblem, type WebhookInput } from '../rules/webhookForm';
import { checkTitle } from '../rules/fields';
import type { ApiError } from '../client';
import { callKey } from '../query';
import { doneMessages, useAct, type ActOptions } from './actions';
import { useApi } from './context';
import { useChanged } from './entityList';
import { useLoad, type Loaded } from './useLoad';
import { usePager, type LogPages } from './pager';

const DONE = doneMessages('Endpoint');
/** How often a log with a delivery waiting for its next attempt is read again; a settled log more slowly. */
export const WEBHOOK_LOG_POLL_MS = 1500;
const WEBHOOK_LOG_IDLE_MS = 15_000;

/**
 * The sentence for a member the server refuses (not an owner), or null. Another client's refusal is not this one: the
 * screen says that client is not found.
 */
const webhooksDenied = (error: ApiError | null): string | null =>
  error?.status === 403 && error.serverMessage === WEBHOOK_MESSAGES.ownersOnly ? error.serverMessage : null;

/** A signing secret to show once: just made (create) or rotated. */
export interface ShownSecret {
  webhook: string;
  /** The endpoint's name, so the door can say whose secret it is. */
  name: string;
  secret: string;
  rotated: boolean;
}

export interface WebhooksScreen extends Loaded<{ client: Client; endpoints: WebhookEndpoint[] }> {
  /** Why the list is not shown (the caller is not an owner), or null. */
  denied: string | null;
  /** The secret to show until dismissed; it is never read again. */
  secret: ShownSecret | null;
  dismissSecret(): void;
  create(input: WebhookInput, opts?: ActOptions): Promise<string | null>;
  rename(id: string, name: string, opts?: ActOptions): Promise<string | null>;
  /** Pauses (false) or resumes (true); resuming also resumes an endpoint the portal paused. */
  setActive(id: string, active: boolean): Promise<string | null>;
  rotate(id: string): Promise<string | null>;
  remove(id: string): Promise<string | null>;
  test(id: string): Promise<string | null>;
}

export function useWebhooks(clientId: string): WebhooksScreen {
  const api = useApi();
  const act = useAct();
  const reload = useChanged('Webhook');
  const loaded = useLoad(
    callKey('webhookList', { client: clientId }),
    (signal) => api.calls.webhookList({ client: clientId }, { signal }),
    { select: (r) => ({ client: r.client, endpoints: r.webhook.list }) },
  );
  const [secret, setSecret] = useState<ShownSecret | null>(null);

  const create = useCallback(
    async (input: WebhookInput, opts?: ActOptions) => {
      let made: ShownSecret | null = null;
      const name = input.name?.trim() || undefined;
      const failed = await act(
        webhookInputProblem(input),
        async () => {
          const r = await api.calls.webhookCreate({ client: clientId, url: input.url.trim(), events: webhookEventsOf(input.events), name });
          made = { webhook: r.webhook.stamp, name: r.webhook.name, secret: r.secret, rotated: false };
        },
        reload,
        undefined,
        opts,
      );
      if (made) setSecret(made);
      return failed;
    },
    [act, api, clientId, reload],
  );
  const rename = useCallback(
    (id: string, name: string, opts?: ActOptions) =>
      act(
        checkTitle(name, 'rename'),
        () => api.calls.webhookUpdate({ webhook: id, name: name.trim() }),
        reload,
        { message: DONE.renamed(name.trim()) },
        opts,
      ),
    [act, api, reload],
  );
  const setActive = useCallback(
    (id: string, active: boolean) =>
      act(null, () => api.calls.webhookUpdate({ webhook: id, active: active ? 1 : 0 }), reload, {
        message: active ? WEBHOOK_MESSAGES.resumed : WEBHOOK_MESSAGES.paused,
      }),
    [act, api, reload],
  );
  const rotate = useCallback(
    async (id: string) => {
      let made: ShownSecret | null = null;
      const failed = await act(
        null,
        async () => {
          const r = await api.calls.webhookRotate({ webhook: id });
          made = { webhook: id, name: r.webhook.name, secret: r.secret, rotated: true };
        },
        reload,
        { message: WEBHOOK_MESSAGES.rotated },
      );
      if (made) setSecret(made);
      return failed;
    },
    [act, api, reload],
  );
  const remove = useCallback(
    async (id: string) => {
      const failed = await act(null, () => api.calls.webhookRemove({ webhook: id }), reload, { message: WEBHOOK_MESSAGES.removed });
      if (failed === null) setSecret((s) => (s?.webhook === id ? null : s));
      return failed;
    },
    [act, api, reload],
  );
  const test = useCallback(
    (id: string) => act(null, () => api.calls.webhookTest({ webhook: id }), reload, { message: WEBHOOK_MESSAGES.testSent }),
    [act, api, reload],
  );
  const denied = webhooksDenied(loaded.error);
  return {
    ...loaded,
    missing: loaded.missing && !denied,
    denied,
    secret,
    dismissSecret: useCallback(() => setSecret(null), []),
    create,
    rename,
    setActive,
    rotate,
    remove,
    test,
  };
}

export interface WebhookLog extends Loaded<{ endpoint: WebhookEndpoint; deliveries: WebhookDelivery[]; next: string | null }>, LogPages {
  redeliver(delivery: string): Promise<string | null>;
}

/** One endpoint's delivery log, newest first, a page at a time; read again often while a delivery waits for its next try. */
export function useWebhookLog(webhookId: string, limit: number = WEBHOOK_DELIVERY_PAGE): WebhookLog {
  const api = useApi();
  const act = useAct();
  const reload = useChanged('Webhook');
  const pager = usePager(limit);
  const { cursor } = pager.page;
  const loaded = useLoad(
    callKey('webhookDeliveries', { webhook: webhookId, cursor, limit }),
    (signal) => api.calls.webhookDeliveries({ webhook: webhookId, cursor, limit }, { signal }),
    {
      select: (r) => ({ endpoint: r.webhook, deliveries: r.delivery.list, next: r.delivery.next }),
      pollMs: (d) => (d.deliveries.some((x) => x.state === 'pending') ? WEBHOOK_LOG_POLL_MS : WEBHOOK_LOG_IDLE_MS),
      enabled: !!webhookId,
    },
  );
  const next = loaded.data?.next ?? null;
  const redeliver = useCallback(
    (delivery: string) => act(null, () => api.calls.webhookRedeliver({ delivery }), reload, { message: WEBHOOK_MESSAGES.redelivered }),
    [act, api, reload],
  );
  return {
    ...loaded,
    page: pager.number,
    hasOlder: next !== null,
    older: () => pager.next(next),
    newer: pager.previous,
    redeliver,
  };
}

/** One delivery: its body as sent and every attempt, oldest first (read again while it waits for a try). */
export function useWebhookDelivery(
  deliveryId: string | null,
): Loaded<{ delivery: WebhookDelivery; body: string; attempts: WebhookAttempt[] }> {
  const api = useApi();
  return useLoad(
    callKey('webhookDelivery', { delivery: deliveryId ?? '' }),
    (signal) => api.calls.webhookDelivery({ delivery: deliveryId ?? '' }, { signal }),
    {
      select: (r) => ({ delivery: r.delivery, body: r.body, attempts: r.attempt.list }),
      pollMs: (d) => (d.delivery.state === 'pending' ? WEBHOOK_LOG_POLL_MS : WEBHOOK_LOG_IDLE_MS),
      enabled: !!deliveryId,
    },
  );
}
