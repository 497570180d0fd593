// `portal webhooks delivery <id>`: one delivery's attempts (time, status code, duration, first bytes of the answer).
import { answerPreview, answerText, durationText, formatDeliveryStatus, formatTime, type WebhookAttempt } from '@portal/core';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'delivery <id>',
  summary: "A delivery's attempts: time, status code, duration and the answer's first bytes; --json adds the body sent",
  examples: ['portal webhooks delivery <id>'],
};

export async function run(opts: { id: string }, s: Session): Promise<void> {
  const api = await s.api();
  const r = await api.calls.webhookDelivery({ delivery: opts.id });
  if (s.out.json) return s.out.object({ ...r.delivery, body: r.body, attempts: r.attempt.list }, []);
  s.out.notice(`${r.delivery.type} ${r.delivery.stamp}: ${formatDeliveryStatus(r.delivery)}`);
  s.out.list<WebhookAttempt>(
    r.attempt.list,
    [
      { header: 'Time', get: (a) => formatTime(a.at) },
      { header: 'Status', get: (a) => answerText(a.status, a.error) },
      { header: 'Duration', get: (a) => durationText(a.durationMs) },
      { header: 'Answer', get: (a) => (a.answer ? answerPreview(a.answer, 100) : '') },
    ],
    'No attempt yet',
  );
}
