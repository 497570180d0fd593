// Schemas of the webhook calls: a client's endpoints, their deliveries and attempts, and the listen stream
// (DESIGN.md's additions, fourth round). Deliveries follow the Standard Webhooks specification.
import * as z from 'zod/mini';
import { TITLE_MAX } from '../limits';
import {
  checkWebhookUrl,
  DELIVERY_STATES,
  WEBHOOK_EVENTS,
  WEBHOOK_MESSAGES,
  WEBHOOK_STATES,
  WEBHOOK_TEST_EVENT,
  WEBHOOK_URL_MAX,
} from '../rules/webhooks';
import { checkTitle } from '../rules/fields';
import { Active, Client, Epoch, Id } from './entities';
import { ruled } from './ruled';

const Count = z.number().check(z.int(), z.nonnegative());
export const WebhookEventName = z.enum(WEBHOOK_EVENTS, WEBHOOK_MESSAGES.events);
/** The events an endpoint receives: at least one, each once. */
export const WebhookEventList = z
  .array(WebhookEventName)
  .check(z.minLength(1, WEBHOOK_MESSAGES.events), z.maxLength(WEBHOOK_EVENTS.length, WEBHOOK_MESSAGES.events));
/** An endpoint's URL by core's rule; whether plain http is allowed is the server's to say (its operator's setting). */
export const WebhookUrl = z.string().check(
  z.trim(),
  z.maxLength(WEBHOOK_URL_MAX, WEBHOOK_MESSAGES.url),
  z.superRefine((v, ctx) => {
    const message = checkWebhookUrl(v, true);
    if (message) ctx.addIssue({ code: 'custom', message });
  }),
);
const WebhookName = ruled((v) => checkTitle(v, 'rename'), true);

export const WebhookEndpoint = z.object({
  stamp: Id,
  client: Id,
  /** The owner's name for it; the URL's host unless given. */
  name: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  /** active, paused (by an owner) or failing (paused by the portal after failing for days). */
  state: z.enum(WEBHOOK_STATES),
  createdAt: Epoch,
  /** Until when the secret before the last rotation still signs beside the current one; null when none does. */
  previousSecretUntil: z.nullable(Epoch),
  /** The last attempt of any delivery: when, and its status code (null: no answer). */
  lastAttemptAt: z.nullable(Epoch),
  lastStatus: z.nullable(z.number().check(z.int())),
  /** Since when every attempt failed; null while the last attempt succeeded (or none was made). */
  failingSince: z.nullable(Epoch),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const WebhookDelivery = z.object({
  /** The message's id: the `webhook-id` header of every attempt of it (receivers deduplicate on it). */
  stamp: Id,
  webhook: Id,
  type: z.string(),
  createdAt: Epoch,
  state: z.enum(DELIVERY_STATES),
  attempts: Count,
  /** When the next attempt is due; null once delivered or given up. */
  nextAttemptAt: z.nullable(Epoch),
  lastAttemptAt: z.nullable(Epoch),
  lastStatus: z.nullable(z.number().check(z.int())),
  /** Why the last attempt had no answer (refused address, timeout, ...), or ''. */
  lastError: z.string(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookAttempt = z.object({
  at: Epoch,
  /** The receiver's status code; null when it did not answer (see `error`). */
  status: z.nullable(z.number().check(z.int())),
  durationMs: Count,
  /** The first bytes of the answer (WEBHOOK_ANSWER_KEPT), as text. */
  answer: z.string(),
  error: z.string(),
});
export type WebhookAttempt = z.infer<typeof WebhookAttempt>;

/** A delivery's body as sent (Standard Webhooks): the event's type, its time (ISO 8601) and the object it names. */
export const WebhookEventBody = z.object({
  type: z.string(),
  timestamp: z.string(),
  data: z.record(z.string(), z.unknown()),
});
export type WebhookEventBody = z.infer<typeof WebhookEventBody>;

const Page = {
  limit: z.optional(
    z.coerce
      .number('limit must be a whole number from 1 to 200')
      .check(z.int('limit must be a whole number from 1 to 200'), z.minimum(1), z.maximum(200, 'limit must be from 1 to 200')),
  ),
  cursor: z.optional(
    z.string().check(z.regex(/^[0-9]{1,15}\.[0-9]{1,18}$/, 'cursor must be the next value of an earlier page of this list')),
  ),
};

export const WebhookListQuery = z.object({ client: Id, ...Page });
export const WebhookListResponse = z.object({
  client: Client,
  webhook: z.object({ list: z.array(WebhookEndpoint), next: z.optional(z.nullable(z.string())) }),
});
export const WebhookCreateBody = z.object({
  client: Id,
  url: WebhookUrl,
  events: WebhookEventList,
  name: z.optional(WebhookName),
});
/** The endpoint, and its signing secret: shown this once. */
export const WebhookSecretResponse = z.object({ webhook: WebhookEndpoint, secret: z.string() });
export const WebhookQuery = z.object({ webhook: Id });
export const WebhookResponse = z.object({ webhook: WebhookEndpoint });
/** Any of name, URL, events and `active` (0 pauses, 1 resumes, also one the portal paused). */
export const WebhookUpdateBody = z.object({
  webhook: Id,
  name: z.optional(WebhookName),
  url: z.optional(WebhookUrl),
  events: z.optional(WebhookEventList),
  active: z.optional(Active),
});
export const WebhookIdBody = z.object({ webhook: Id });
export const WebhookTestBody = z.object({
  webhook: Id,
  /** The event's type the test carries (its data says it is a test); `webhook.test` unless given. */
  type: z.optional(z.union([WebhookEventName, z.literal(WEBHOOK_TEST_EVENT)])),
});
export const WebhookDeliveryResponse = z.object({ delivery: WebhookDelivery });
export const WebhookDeliveriesQuery = z.object({ webhook: Id, ...Page });
export const WebhookDeliveriesResponse = z.object({
  webhook: WebhookEndpoint,
  delivery: z.object({ list: z.array(WebhookDelivery), next: z.nullable(z.string()) }),
});
export const WebhookDeliveryQuery = z.object({ delivery: Id });
/** One delivery with its body as sent and every attempt, oldest first. */
export const WebhookDeliveryShowResponse = z.object({
  delivery: WebhookDelivery,
  body: z.string(),
  attempt: z.object({ list: z.array(WebhookAttempt) }),
});
export const WebhookRedeliverBody = z.object({ delivery: Id });

/** `portal webhooks listen`: the client's events (all, or those named, comma-separated) as they happen. */
export const WebhookListenQuery = z.object({
  client: Id,
  events: z.optional(z.string().check(z.maxLength(TITLE_MAX * 4))),
});
/**
 * The listen stream is NDJSON: one object a line. First `{"type":"listen","secret":"whsec_...","events":[...]}` (the
 * secret this stream signs with, and the events it carries: those asked for, or all), then one line per event: the
 * event's `id` (webhook-id), `timestamp` (webhook-timestamp), `body` (the exact text to send on) and `signature`
 * (webhook-signature); `{"type":"ping"}` every 20 seconds.
 */
export const WebhookListenLine = z.union([
  z.object({ type: z.literal('listen'), secret: z.string(), events: z.array(z.string()) }),
  z.object({ type: z.literal('event'), id: z.string(), timestamp: z.string(), body: z.string(), signature: z.string() }),
  z.object({ type: z.literal('ping') }),
]);
export type WebhookListenLine = z.infer<typeof WebhookListenLine>;

/** A line of the listen stream, or null for a line that is not one (skipped). */
export function parseListenLine(line: string): WebhookListenLine | null {
  if (!line.trim()) return null;
  try {
    const r = WebhookListenLine.safeParse(JSON.parse(line));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}
