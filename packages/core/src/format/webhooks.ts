// How the doors word a webhook endpoint and its deliveries: state, last delivery, events, an attempt's answer and
// duration, and what `portal webhooks listen` prints per event. One place, so web, terminal UI and CLI read alike.
import type { WebhookAttempt, WebhookEndpoint } from '../contract/webhooks';
import { WEBHOOK_EVENTS, WEBHOOK_STATE_LABELS } from '../rules/webhooks';
import { printable } from './printable';
import { relativeTime } from './time';

/** An endpoint's state as the doors show it: 'Active', 'Paused', 'Paused (failing)'. */
export const webhookStateText = (e: Pick<WebhookEndpoint, 'state'>): string => WEBHOOK_STATE_LABELS[e.state] ?? e.state;

/** The events an endpoint receives, short: every one is 'All events'. */
export function webhookEventsText(events: readonly string[]): string {
  if (WEBHOOK_EVENTS.every((e) => events.includes(e))) return 'All events';
  return events.join(', ');
}

/** An answer's status code, or why there was none: 'HTTP 200', 'No answer (timed out)'. */
export function answerText(status: number | null | undefined, error?: string | null): string {
  if (status !== null && status !== undefined) return `HTTP ${status}`;
  return error ? `No answer (${error})` : 'No answer';
}

/** The endpoint's last attempt at a glance: 'Never', or 'HTTP 200, 3 min ago'. */
export function lastDeliveryText(e: Pick<WebhookEndpoint, 'lastAttemptAt' | 'lastStatus'>, now: Date = new Date()): string {
  if (e.lastAttemptAt === null) return 'Never';
  return `${answerText(e.lastStatus)}, ${relativeTime(e.lastAttemptAt, now)}`;
}

/** Whether the endpoint answered well the last time: a 2xx. */
export const answeredOk = (status: number | null | undefined): boolean =>
  status !== null && status !== undefined && status >= 200 && status < 300;

/** A duration in milliseconds, short: '84 ms', '1.2 s'. */
export function durationText(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/** The first characters of an answer on one line (whitespace folded, controls shown as escapes), cut with '…'. */
export function answerPreview(answer: string, max = 80): string {
  const line = printable(answer.replace(/\s+/g, ' ').trim());
  if (!line) return '(empty)';
  return line.length > max ? `${line.slice(0, Math.max(1, max - 1))}…` : line;
}

/** One attempt in a line: 'HTTP 500 in 84 ms: {"error":"down"}'. */
export function attemptText(a: WebhookAttempt, max = 60): string {
  const head = `${answerText(a.status, a.error)} in ${durationText(a.durationMs)}`;
  return a.answer ? `${head}: ${answerPreview(a.answer, max)}` : head;
}

/** `portal webhooks listen`'s line per event forwarded: '14:03:07  run.finished  evt_…  -> 200 (12 ms)'. */
export function listenLine(at: Date, type: string, id: string, result: { status: number; ms: number } | { error: string }): string {
  const time = at.toISOString().slice(11, 19);
  const outcome = 'error' in result ? `-> failed: ${result.error}` : `-> ${result.status} (${durationText(result.ms)})`;
  return `${time}  ${printable(type).padEnd(14)}  ${printable(id)}  ${outcome}`;
}
