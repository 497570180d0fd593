// Free credit and quote amounts: free credit is spent first, then $0.22 per started million input parameters.
import { randomBytes } from 'node:crypto';
import type { Transaction } from 'kysely';
import { MILLION } from '@portal/core';
import type { DB } from '../db/schema';

/** Takes up to `inputs` from the client's free credit (call inside a transaction: the row is locked). */
export async function spendCredit(trx: Transaction<DB>, client: string, inputs: number): Promise<{ free: number; billable: number }> {
  if (inputs <= 0) return { free: 0, billable: 0 };
  const c = await trx
    .selectFrom('clients')
    .select(['credit_total', 'credit_used'])
    .where('stamp', '=', client)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const free = Math.min(Math.max(0, c.credit_total - c.credit_used), inputs);
  if (free > 0)
    await trx
      .updateTable('clients')
      .set({ credit_used: c.credit_used + free })
      .where('stamp', '=', client)
      .execute();
  return { free, billable: inputs - free };
}

/** Input parameters as the wire's decimal string of millions. */
export const millions = (n: number) => String(Math.round((n / MILLION) * 1e6) / 1e6);

export function invoiceNumber(t = new Date()): string {
  const d = t.toISOString().slice(0, 10).replace(/-/g, '');
  return `INV-${d}-${randomBytes(4).toString('hex').toUpperCase()}`;
}
