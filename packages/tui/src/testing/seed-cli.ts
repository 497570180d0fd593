// What the command tests need beyond ./api: tokens the server refuses, the bytes it stored, the mail it sent.
import { createHash, createHmac } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestApi, TestUser } from './api';

/** The user's token with its signature made by another key: well formed and unexpired, but refused by the server. */
export function forgedToken(user: TestUser): string {
  const [header, payload] = user.token.split('.');
  return `${header}.${payload}.${createHmac('sha256', 'not-the-server-secret').update(`${header}.${payload}`).digest('base64url')}`;
}

/** Size and SHA-256 of the bytes the server's storage holds for an upload item, or null when none arrived. */
export async function storedBytes(server: TestApi, item: string): Promise<{ size: number; sha256: string } | null> {
  const storage = server.server.built.services.storage;
  const key = `uploads/${item}`;
  if (!(await storage.stat(key))) return null;
  const copy = await storage.localCopy(key);
  try {
    const bytes = await readFile(copy.path);
    return { size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
  } finally {
    await copy.done();
  }
}

/** The password-reset token from the mail the server wrote to its outbox for this address (sent in the background). */
export async function resetTokenFor(server: TestApi, email: string, timeoutMs = 10_000): Promise<string> {
  const outbox = join(server.server.dataDir, 'outbox');
  const end = Date.now() + timeoutMs;
  for (;;) {
    const files = await readdir(outbox).catch(() => [] as string[]);
    const mails = await Promise.all(files.map((f) => readFile(join(outbox, f), 'utf8')));
    const mail = mails.find((m) => m.includes(`To: ${email}\n`));
    const link = mail && /reset-password\?token=(\S+)/.exec(mail);
    if (link) return decodeURIComponent(link[1]);
    if (Date.now() > end) throw new Error(`no reset mail for ${email}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Sets an account's free credit (input parameters granted and used), as an operator or earlier requests would. */
export async function setCredit(server: TestApi, client: string, total: number, used: number): Promise<void> {
  await server.server.built.services.db.updateTable('clients').set({ credit_total: total, credit_used: used }).where('stamp', '=', client).execute();
}
