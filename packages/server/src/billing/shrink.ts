// A paid quote starts its shrink run: the run is created Pending and a shrink job queued, in one transaction.
import type { Transaction } from 'kysely';
import type { DB } from '../db/schema';
import type { JobQueue } from '../worker/queue';
import { newId, now } from '../ids';

/** Marks an Unpaid quote Paid and starts its run; false when it was not Unpaid (already paid or unknown). */
export async function payQuote(trx: Transaction<DB>, jobs: JobQueue, quoteStamp: string): Promise<boolean> {
  const t = now();
  const quote = await trx
    .updateTable('quotes')
    .set({ state: 'Paid', paid_at: t })
    .where('stamp', '=', quoteStamp)
    .where('state', '=', 'Unpaid')
    .returningAll()
    .executeTakeFirst();
  if (!quote) return false;
  const run = newId('n_');
  await trx
    .insertInto('runs')
    .values({
      stamp: run, bucket: quote.bucket, rend: quote.rend, pile: quote.pile, fit: null, quote: quote.stamp, model: null,
      name: quote.name, desc: quote.desc, function: 'shrink', state: 'Pending', message: '', result_key: null,
      inputs: quote.inputs, active: 1, created_at: t,
    })
    .execute();
  await trx.updateTable('quotes').set({ run }).where('stamp', '=', quote.stamp).execute();
  await jobs.enqueue(trx, 'shrink', run);
  return true;
}
