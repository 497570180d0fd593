import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, formatDeliveryStatus, parseWebhookEvents, WEBHOOK_MESSAGES } from './webhooks';
import { parseListenLine, WebhookCreateBody } from '../contract/webhooks';

describe('webhook rules', () => {
  it('an endpoint URL is https, or plain http where private addresses are allowed; never with credentials', () => {
    expect(checkWebhookUrl('https://hooks.example.com/portal')).toBeNull();
    expect(checkWebhookUrl('http://hooks.example.com/portal')).toBe(WEBHOOK_MESSAGES.httpsOnly);
    expect(checkWebhookUrl('http://127.0.0.1:9000/x', true)).toBeNull();
    expect(checkWebhookUrl('https://user:pw@example.com/')).toBe(WEBHOOK_MESSAGES.url);
    expect(checkWebhookUrl('ftp://example.com/')).toBe(WEBHOOK_MESSAGES.url);
    expect(checkWebhookUrl('not a url')).toBe(WEBHOOK_MESSAGES.url);
    expect(checkWebhookUrl(`https://example.com/${'a'.repeat(2100)}`)).toBe(WEBHOOK_MESSAGES.url);
  });

  it('events from a comma-separated list, each once, unknown ones named', () => {
    expect(parseWebhookEvents('run.finished, run.failed,run.finished')).toEqual({ events: ['run.finished', 'run.failed'] });
    expect(parseWebhookEvents(' , ')).toEqual({ error: WEBHOOK_MESSAGES.events });
    expect(parseWebhookEvents('run.finished,run.done')).toEqual({ error: WEBHOOK_MESSAGES.unknownEvent('run.done') });
  });

  it("a delivery's status reads as its state, attempts and last answer", () => {
    expect(formatDeliveryStatus({ state: 'pending', attempts: 0 })).toBe('Pending');
    expect(formatDeliveryStatus({ state: 'delivered', attempts: 1, lastStatus: 204 })).toBe('Delivered (HTTP 204)');
    expect(formatDeliveryStatus({ state: 'pending', attempts: 2, lastStatus: 500 })).toBe('Retrying (2 attempts, last: HTTP 500)');
    expect(formatDeliveryStatus({ state: 'failed', attempts: 1, lastError: 'timed out' })).toBe('Failed after 1 attempt: timed out');
  });

  it('the create body takes a URL, at least one known event and an optional name', () => {
    expect(WebhookCreateBody.safeParse({ client: 'c', url: ' https://x.example/h ', events: ['run.finished'] }).success).toBe(true);
    expect(WebhookCreateBody.safeParse({ client: 'c', url: 'https://x.example/h', events: [] }).success).toBe(false);
    expect(WebhookCreateBody.safeParse({ client: 'c', url: 'https://x.example/h', events: ['run.done'] }).success).toBe(false);
  });

  it('reads the lines of the listen stream, skipping what is not one', () => {
    expect(parseListenLine('{"type":"ping"}')).toEqual({ type: 'ping' });
    expect(parseListenLine('{"type":"listen","secret":"whsec_x","events":[]}')).toMatchObject({ type: 'listen' });
    expect(parseListenLine('nonsense')).toBeNull();
    expect(parseListenLine('')).toBeNull();
  });
});
