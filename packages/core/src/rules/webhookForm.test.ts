import { describe, expect, it } from 'vitest';
import { WEBHOOK_MESSAGES } from './webhooks';
import { checkWebhookInput, webhookEventsOf, webhookInputProblem } from './webhookForm';

describe('the add-endpoint form', () => {
  it('names what to fix in each field', () => {
    expect(checkWebhookInput({ url: 'https://example.com/hooks', events: ['run.finished'] })).toEqual({});
    // Plain http is the server's to refuse (its operator may allow private addresses).
    expect(checkWebhookInput({ url: 'http://127.0.0.1:3000/', events: ['run.finished'] })).toEqual({});
    expect(checkWebhookInput({ url: 'ftp://x', events: [], name: 'x'.repeat(61) })).toEqual({
      url: WEBHOOK_MESSAGES.url,
      events: WEBHOOK_MESSAGES.events,
      name: 'Please enter the title between 1 and 60 characters long',
    });
    expect(webhookInputProblem({ url: 'https://a.example', events: ['run.done'] })).toBe(WEBHOOK_MESSAGES.unknownEvent('run.done'));
  });

  it("sends the events in the table's order, each once", () => {
    expect(webhookEventsOf(['quote.paid', 'run.finished', 'quote.paid', 'nope'])).toEqual(['run.finished', 'quote.paid']);
  });
});
