// Quotes and their payment: a quote is billable only while its subject (project and model upload) exists, and a
// paid quote starts its shrink run exactly once (the run is created Pending and a shrink job queued, in one transaction).
import { sql, type ExpressionBuilder, type Transaction } from 'kysely';
import { QUOTE_UNPAID, formatDollars } from '@portal/core';
import { PAYMENT_PORTAL, audit } from '../audit';
import type { DB } from '../db/schema';
import { newRunRow } from '../db/rows';
import type { JobQueue } from '../worker/queue';
import { newId, now } from '../ids';

/**
 * The quote is not removed and neither is what it would process: its project and its upload. A quote whose
 * subject is gone leaves the balance and cannot be paid (its run would process nothing anybody can see).
 */
export function quoteIsLive(eb: ExpressionBuilder<DB, 'quotes'>) {
  return eb.and([
    eb('quotes.active', '=', 1),
    eb.exists(
      eb.selectFrom('buckets').select(sql.lit(1).as('one')).whereRef('buckets.stamp', '=', 'quotes.bucket').where('buckets.active', '=', 1),
    ),
    eb.or([
      eb('quotes.rend', 'is', null),
      eb.exists(
        eb.selectFrom('rends').select(sql.lit(1).as('one')).whereRef('rends.stamp', '=', 'quotes.rend').where('rends.active', '=', 1),
      ),
    ]),
  ]);
}

export const QUOTE_GONE_MESSAGE =
  'This invoice can no longer be paid: its project or model upload was removed, so there is nothing to process.';

/** What paying did: started the run, found it already paid (nothing charged again), or found its subject removed. */
export type PayResult = 'started' | 'already-paid' | 'removed' | 'unknown';

/**
 * Marks an Unpaid, live quote Paid and starts its run. The state check is part of the one UPDATE, so of two
 * concurrent payments only one matches the row (PostgreSQL re-checks the condition after the first commits):
 * exactly one run and one charge.
 */
/** Pays a quote and queues its shrink run; `requestId`: the request that paid (the run's job names it). */
export async function payQuote(trx: Transaction<DB>, jobs: JobQueue, quoteStamp: string, requestId: string | null): Promise<PayResult> {
  const t = now();
  const quote = await trx
    .updateTable('quotes')
    .set({ state: 'Paid', paid_at: t })
    .where('stamp', '=', quoteStamp)
    .where('state', '=', QUOTE_UNPAID)
    .where(quoteIsLive)
    .returningAll()
    .executeTakeFirst();
  if (!quote) {
    const row = await trx.selectFrom('quotes').select(['state']).where('stamp', '=', quoteStamp).executeTakeFirst();
    if (!row) return 'unknown';
    // Still Unpaid, so the UPDATE missed it for the other reason: its subject is gone.
    return row.state !== QUOTE_UNPAID ? 'already-paid' : 'removed';
  }
  const run = newId('n_');
  await trx
    .insertInto('runs')
    .values(
      newRunRow({
        stamp: run,
        bucket: quote.bucket,
        rend: quote.rend,
        pile: quote.pile,
        quote: quote.stamp,
        name: quote.name,
        desc: quote.desc,
        function: 'shrink',
        inputs: quote.inputs,
        created_at: t,
      }),
    )
    .execute();
  await trx.updateTable('quotes').set({ run }).where('stamp', '=', quote.stamp).execute();
  await jobs.enqueue(trx, 'shrink', run, { requestId });
  const project = await trx.selectFrom('buckets').select('client').where('stamp', '=', quote.bucket).executeTakeFirstOrThrow();
  await audit(
    trx,
    {
      client: project.client,
      actor: PAYMENT_PORTAL,
      action: 'quote.pay',
      target: quote.stamp,
      detail: `${quote.name} (${formatDollars(quote.cent)})`,
    },
    // The paid quote's shrink request: made by the payment, as a fit or generate request is by its sender.
    { client: project.client, actor: PAYMENT_PORTAL, action: 'request.create', target: run, detail: quote.name },
  );
  return 'started';
}
