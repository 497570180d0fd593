import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENTS } from '../rules/webhooks';
import {
  answerPreview,
  answerText,
  attemptText,
  durationText,
  lastDeliveryText,
  listenLine,
  webhookEventsText,
  webhookStateText,
} from './webhooks';

describe('webhook wording', () => {
  it("says an endpoint's state, events and last delivery as people read them", () => {
    expect(webhookStateText({ state: 'failing' })).toBe('Paused (failing)');
    expect(webhookEventsText([...WEBHOOK_EVENTS])).toBe('All events');
    expect(webhookEventsText(['run.finished', 'run.failed'])).toBe('run.finished, run.failed');
    const now = new Date('2026-11-28T12:00:00Z');
    expect(lastDeliveryText({ lastAttemptAt: null, lastStatus: null }, now)).toBe('Never');
    expect(lastDeliveryText({ lastAttemptAt: now.getTime() / 1000 - 180, lastStatus: 200 }, now)).toBe('HTTP 200, 3 min ago');
    expect(lastDeliveryText({ lastAttemptAt: now.getTime() / 1000 - 10, lastStatus: null }, now)).toBe('No answer, just now');
  });

  it("says an attempt's answer, duration and first bytes on one line", () => {
    expect(answerText(null, 'timed out')).toBe('No answer (timed out)');
    expect(durationText(84.4)).toBe('84 ms');
    expect(durationText(1234)).toBe('1.2 s');
    expect(durationText(12_345)).toBe('12 s');
    expect(answerPreview('  {"ok":\n  true}\u001b[31m ')).toBe('{"ok": true}\\x1b[31m');
    expect(answerPreview('x'.repeat(100), 10)).toBe(`${'x'.repeat(9)}…`);
    expect(answerPreview('   ')).toBe('(empty)');
    expect(attemptText({ at: 0, status: 500, durationMs: 12, answer: 'down', error: '' })).toBe('HTTP 500 in 12 ms: down');
    expect(attemptText({ at: 0, status: null, durationMs: 5000, answer: '', error: 'refused' })).toBe('No answer (refused) in 5.0 s');
  });

  it("words listen's line per forwarded event", () => {
    const at = new Date('2026-11-28T14:03:07Z');
    expect(listenLine(at, 'run.finished', 'msg_1', { status: 200, ms: 12 })).toBe('14:03:07  run.finished    msg_1  -> 200 (12 ms)');
    expect(listenLine(at, 'upload.ready', 'msg_2', { error: 'ECONNREFUSED' })).toBe(
      '14:03:07  upload.ready    msg_2  -> failed: ECONNREFUSED',
    );
  });
});
