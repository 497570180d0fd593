// Seeding the screen tests need beyond testing/api.ts, in the same style: direct writes into the server's database.
import { randomBytes } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { call, waitFor } from '@portal/server/testing';
import { T0, type TestApi, type TestUser } from './api';

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

/**
 * Asks the server for a password reset for the user and returns the token from the link in the mail it sends
 * (the embedded mailer writes each mail to DATA_DIR/outbox, in the background).
 */
export async function resetToken(api: TestApi, user: TestUser): Promise<string> {
  const asked = await call(api.server.url, 'resetStart', { body: { email: user.email } });
  if (asked.status !== 200) throw new Error(`reset start failed: ${asked.status}`);
  const outbox = join(api.server.dataDir, 'outbox');
  const mail = await waitFor(async () => {
    const files = await readdir(outbox).catch(() => [] as string[]);
    const mails = await Promise.all(files.map((f) => readFile(join(outbox, f), 'utf8')));
    return mails.find((m) => m.includes(`To: ${user.email}`));
  }, 10_000);
  const link = /reset-password\?token=(\S+)/.exec(mail);
  if (!link) throw new Error(`No reset link in:\n${mail}`);
  return decodeURIComponent(link[1]);
}

/** Whether the server accepts this email and password at login. */
export async function canLogIn(api: TestApi, email: string, password: string): Promise<boolean> {
  const r = await call(api.server.url, 'login', { headers: { authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}` } });
  return r.status === 200;
}
