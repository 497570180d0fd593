// Seeding and checks beyond client-api.ts: keys made through the real API (the server encrypts their tokens), then
// what only happens over time written into its database; tokens the server refuses, the bytes its storage holds, the
// mail it sent, and whether a password logs in.
import { createHash, createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { CallName, ClientApiKey, IntegrationKey } from '@portal/core';
import { rows, type TestApi, type TestUser } from './api';
import { call as callServer, mailsTo } from './harness';

/** One call of the route table straight to the server (not through the proxy: it is not counted nor failed). */
async function call<T>(api: TestApi, name: CallName, body: unknown, user: TestUser = api.user): Promise<T> {
  const r = await callServer<T>(api.server.url, name, { body, token: user.token });
  if (r.status !== 200) throw new Error(`${name} failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** A client API key of the user's account; installs and the last install time as the installer download leaves them. */
export async function seedApiKey(
  api: TestApi,
  opts: { name?: string; installs?: number; installedAt?: number | null; client?: string } = {},
) {
  const { apikey } = await call<{ apikey: ClientApiKey }>(api, 'apikeyCreate', {
    client: opts.client ?? api.user.client,
    name: opts.name ?? 'CI',
  });
  if (opts.installs !== undefined || opts.installedAt !== undefined) {
    await rows(api)
      .updateTable('apikeys')
      .set({ installs: opts.installs ?? 0, installed_at: opts.installedAt ?? null })
      .where('clue', '=', apikey.clue)
      .execute();
  }
  return apikey;
}

/** An integration key of the user's account; runs as the requests that used it leave them. */
export async function seedIntegration(api: TestApi, opts: { name?: string; token?: string; runs?: number; client?: string } = {}) {
  const { apikey } = await call<{ apikey: IntegrationKey }>(api, 'integrationCreate', {
    client: opts.client ?? api.user.client,
    name: opts.name ?? 'OpenAI prod',
    service: 'OpenAI',
    token: opts.token ?? 'sk-secret-abcd',
  });
  if (opts.runs !== undefined)
    await rows(api).updateTable('integrations').set({ runs: opts.runs }).where('clue', '=', apikey.clue).execute();
  return { ...apikey, runs: opts.runs ?? apikey.runs };
}

/** Moves an account to another deployment choice (addAccount makes Premise ones). */
export async function setChoice(api: TestApi, client: string, choice: 'Cloud' | 'Premise') {
  await rows(api).updateTable('clients').set({ choice }).where('stamp', '=', client).execute();
}

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
  const end = Date.now() + timeoutMs;
  for (;;) {
    const [mail] = await mailsTo(server.server.dataDir, email);
    const link = mail && /reset-password\?token=(\S+)/.exec(mail);
    if (link) return decodeURIComponent(link[1]);
    if (Date.now() > end) throw new Error(`no reset mail for ${email}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Sets an account's free credit (input parameters granted and used), as an operator or earlier requests would. */
export async function setCredit(server: TestApi, client: string, total: number, used: number): Promise<void> {
  await server.server.built.services.db
    .updateTable('clients')
    .set({ credit_total: total, credit_used: used })
    .where('stamp', '=', client)
    .execute();
}

/** Asks the server for a password reset for the user; the token from the link in the mail it sends. */
export async function resetToken(api: TestApi, user: TestUser): Promise<string> {
  await call(api, 'resetStart', { email: user.email }, user);
  return resetTokenFor(api, user.email);
}

/** Whether the server accepts this email and password at login. */
export async function canLogIn(api: TestApi, email: string, password: string): Promise<boolean> {
  const r = await callServer(api.server.url, 'login', {
    headers: { authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}` },
  });
  return r.status === 200;
}
