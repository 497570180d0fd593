// The storage sweep: objects of failed and removed uploads, and scratch nobody reads, go once their grace period is over.
import type { Kysely } from 'kysely';
import { QUOTE_UNPAID } from '@portal/core';
import type { DB } from '../db/schema';
import { uploadKey } from '../uploads';
import type { Storage } from './types';

/** Items swept per call at most: a backlog drains over several housekeeping rounds instead of one long one. */
const BATCH = 500;

export interface SweepResult {
  /** Upload items whose stored objects were deleted. */
  uploads: number;
  /** Staging objects and temporary files deleted. */
  scratch: number;
}

/**
 * Deletes what failed or removed uploads stored, once they ended more than the storage's grace period before `nowS`
 * (epoch seconds), and scratch left that long. An upload some request still waits on (a fit, or a shrink quote not
 * yet paid) keeps its bytes. Safe to run from several workers at once: deleting twice is harmless.
 */
export async function sweepStorage(db: Kysely<DB>, storage: Storage, nowS: number): Promise<SweepResult> {
  // A store that does not answer is already reported by readiness; the sweep waits for the next round.
  if (await storage.check()) return { uploads: 0, scratch: 0 };
  const cutoff = nowS - storage.sweepGraceS;
  const items = await db
    .selectFrom('uploads as u')
    .select('u.stamp')
    .where('u.swept_at', 'is', null)
    .where('u.ended_at', '<', cutoff)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('runs as r').select('r.stamp').whereRef('r.rend', '=', 'u.rend').where('r.state', 'in', ['Pending', 'Processing']),
        ),
      ),
    )
    // A shrink quote's run starts when it is paid, and reads the upload then.
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('quotes as q')
            .select('q.stamp')
            .whereRef('q.rend', '=', 'u.rend')
            .where('q.state', '=', QUOTE_UNPAID)
            .where('q.active', '=', 1),
        ),
      ),
    )
    .orderBy('u.ended_at')
    .limit(BATCH)
    .execute();
  for (const { stamp } of items) {
    await storage.remove(uploadKey(stamp));
    await db.updateTable('uploads').set({ swept_at: nowS, stored: 0 }).where('stamp', '=', stamp).execute();
  }
  const scratch = await storage.sweepScratch(cutoff);
  return { uploads: items.length, scratch };
}
