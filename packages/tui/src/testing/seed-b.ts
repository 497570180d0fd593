// Seeding the screen tests need beyond testing/api.ts, in the same style: direct writes into the server's database.
import { randomBytes } from 'node:crypto';
import { T0, type TestApi } from './api';

const db = (api: TestApi) => api.server.built.services.db;

export interface SeedQuote {
  name?: string;
  desc?: string;
  state?: string;
  message?: string;
  cent?: number;
  /** The request a paid quote started. */
  run?: string | null;
  /** Invoice numbers are unique on the server: a fresh one unless told. */
  invoiceNum?: string;
}

/** Adds a shrink quote on an upload (Unpaid unless told), with its own invoice number. */
export async function seedInvoice(api: TestApi, bucket: string, rend: string | null, opts: SeedQuote = {}) {
  const stamp = 'q_' + randomBytes(9).toString('base64url');
  const invoiceNum = opts.invoiceNum ?? `INV-${randomBytes(4).toString('hex').toUpperCase()}`;
  await db(api)
    .insertInto('quotes')
    .values({
      stamp, bucket, rend, pile: null, run: opts.run ?? null, name: opts.name ?? 'Shrink it', desc: opts.desc ?? '', function: 'shrink',
      state: opts.state ?? 'Unpaid', message: opts.message ?? '', cent: opts.cent ?? 22, invoice_num: invoiceNum, inputs: 40, active: 1,
      created_at: T0, paid_at: opts.state === 'Paid' ? T0 : null,
    })
    .execute();
  return { stamp, name: opts.name ?? 'Shrink it', invoiceNum };
}
