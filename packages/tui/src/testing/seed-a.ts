// Seeding for the key, integration, account and billing screen tests: keys are made through the real API (the server
// encrypts their tokens), then what only happens over time (installs, runs of an integration) is written into its database.
import { CALLS, type CallName, type ClientApiKey, type IntegrationKey } from '@portal/core';
import { rows, type TestApi, type TestUser } from './api';

/** One call of the route table straight to the server (not through the proxy: it is not counted nor failed). */
async function call<T>(api: TestApi, name: CallName, body: unknown, user: TestUser = api.user): Promise<T> {
  const def = CALLS[name];
  const r = await fetch(new URL(def.path, api.server.url), {
    method: def.method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
    body: JSON.stringify(body),
  });
  const out = (await r.json()) as T;
  if (!r.ok) throw new Error(`${name} failed: ${r.status} ${JSON.stringify(out)}`);
  return out;
}

/** A client API key of the user's account; installs and the last install time as the installer download leaves them. */
export async function seedApiKey(api: TestApi, opts: { name?: string; installs?: number; installedAt?: number | null; client?: string } = {}) {
  const { apikey } = await call<{ apikey: ClientApiKey }>(api, 'apikeyCreate', { client: opts.client ?? api.user.client, name: opts.name ?? 'CI' });
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
  if (opts.runs !== undefined) await rows(api).updateTable('integrations').set({ runs: opts.runs }).where('clue', '=', apikey.clue).execute();
  return { ...apikey, runs: opts.runs ?? apikey.runs };
}

/** Sets the account's free credit: granted and already used, in input parameters. */
export async function setCredit(api: TestApi, client: string, total: number, used: number) {
  await rows(api).updateTable('clients').set({ credit_total: total, credit_used: used }).where('stamp', '=', client).execute();
}

/** Moves an account to another deployment choice (addAccount makes Premise ones). */
export async function setChoice(api: TestApi, client: string, choice: 'Cloud' | 'Premise') {
  await rows(api).updateTable('clients').set({ choice }).where('stamp', '=', client).execute();
  api.server.built.services.listCache.clear();
}
