// The add-endpoint form's checks, field by field, as every door shows them before anything is sent.
import { checkTitle } from './fields';
import { WEBHOOK_EVENTS, WEBHOOK_MESSAGES, checkWebhookUrl, type WebhookEventType } from './webhooks';

export interface WebhookInput {
  url: string;
  events: readonly string[];
  /** The endpoint's name; the URL's host when empty. */
  name?: string;
}

export type WebhookFormErrors = Partial<Record<'url' | 'events' | 'name', string>>;

/**
 * What to fix in each field, or an empty object. Plain http passes here: whether the server allows it is its
 * operator's setting (PORTAL_WEBHOOK_ALLOW_PRIVATE), and its refusal names it.
 */
export function checkWebhookInput(input: WebhookInput): WebhookFormErrors {
  const errors: WebhookFormErrors = {};
  const url = checkWebhookUrl(input.url, true);
  if (url) errors.url = url;
  if (input.events.length === 0) errors.events = WEBHOOK_MESSAGES.events;
  const unknown = input.events.find((e) => !(WEBHOOK_EVENTS as readonly string[]).includes(e));
  if (unknown !== undefined) errors.events = WEBHOOK_MESSAGES.unknownEvent(unknown);
  const name = input.name?.trim() ? checkTitle(input.name, 'create') : null;
  if (name) errors.name = name;
  return errors;
}

/** The first thing to fix, or null: one line for the CLI and the terminal UI. */
export function webhookInputProblem(input: WebhookInput): string | null {
  const e = checkWebhookInput(input);
  return e.url ?? e.events ?? e.name ?? null;
}

/** The events as the call takes them: known names, each once, in the table's order. */
export const webhookEventsOf = (events: readonly string[]): WebhookEventType[] => WEBHOOK_EVENTS.filter((e) => events.includes(e));
