// A retry of a mail the API could not send at once: sent, retried later with backoff, or given up (logged).
import { attemptMail } from '../../mail/outbox';
import type { JobHandler } from './job';

export const mail: JobHandler = {
  async run(ctx, id) {
    // Without mail settings this worker cannot send: the job waits for a worker that has them.
    if (!ctx.mail) return { waitS: 60 };
    const r = await attemptMail({ ...ctx.mail, db: ctx.db, jobs: ctx.jobs, log: ctx.log }, id);
    return r.outcome === 'retry' ? { waitS: r.waitS } : 'done';
  },
  // A mail that cannot be sent has nothing else to mark failed.
  async fail() {},
};
