// Client API keys (token generated here, kept encrypted so the info page can show it) and integration keys (masked).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { randomBytes } from 'node:crypto';
import { defineCall, KEY_TOKEN_PREFIX, type CallServices } from './define';
import { defineRenameRemove } from './renameRemove';
import { requireApiKey, requireClient, requireIntegration } from '../access';
import { apiKeyView, clientView, integrationView } from '../views';
import { newId, now } from '../ids';
import { sha256Hex } from '../auth/secrets';
import { actorOf, audit } from '../audit';
import type { Services } from '../services';
import { activeRowsOf, listOut, pageOf, pageRows } from '../paging';

/** What the group uses: a call's own services and secrets. */
export type KeyServices = CallServices & Pick<Services, 'secrets'>;

export const UNREADABLE_TOKEN = '(unreadable: the encryption key changed; create a new key)';

export const keyRoutes: FastifyPluginAsyncZod<KeyServices> = async (app, s) => {
  // A token encrypted under a key this server no longer has cannot be read back: the list says so instead of failing.
  const reveal = (enc: string) => {
    try {
      return s.secrets.decrypt(enc);
    } catch {
      return UNREADABLE_TOKEN;
    }
  };
  const keyOut = (k: Parameters<typeof apiKeyView>[0]) => apiKeyView(k, reveal(k.token_enc));
  const integrationOut = (k: Parameters<typeof integrationView>[0]) => integrationView(k, reveal(k.token_enc));

  defineCall(app, s, 'apikeyList', { sessionInQuery: true }, async ({ caller, query }) => {
    const client = await requireClient(s.db, caller, query.client);
    const page = pageOf(query, 'apikeys');
    const { rows, next } = pageRows(await activeRowsOf(s.db, 'apikeys', client.stamp, page).execute(), page);
    return { client: { list: [clientView(client)] }, apikey: listOut(rows.map(keyOut), next) };
  });

  defineCall(app, s, 'apikeyCreate', {}, async ({ caller, body }) => {
    const client = await requireClient(s.db, caller, body.client);
    const token = KEY_TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const row = {
      clue: newId('k_'),
      client: client.stamp,
      name: body.name,
      token_enc: s.secrets.encrypt(token),
      token_hash: sha256Hex(token),
      install_secret: randomBytes(24).toString('base64url'),
      installs: 0,
      installed_at: null,
      active: 1,
      created_at: now(),
    };
    await s.db.transaction().execute(async (trx) => {
      await trx.insertInto('apikeys').values(row).execute();
      await audit(trx, { client: client.stamp, actor: actorOf(caller), action: 'apikey.create', target: row.clue, detail: row.name });
    });
    return { apikey: apiKeyView(row, token) };
  });

  defineRenameRemove(app, s, 'apikey', {
    find: (caller, clue) => requireApiKey(s.db, caller, clue),
    row: 'key',
    renamed: async (key) => ({ apikey: keyOut(key) }),
  });

  defineCall(app, s, 'integrationList', { sessionInQuery: true }, async ({ caller, query }) => {
    const client = await requireClient(s.db, caller, query.client);
    const page = pageOf(query, 'integrations');
    const { rows, next } = pageRows(await activeRowsOf(s.db, 'integrations', client.stamp, page).execute(), page);
    return { client: { list: [clientView(client)] }, apikey: listOut(rows.map(integrationOut), next) };
  });

  defineCall(app, s, 'integrationCreate', {}, async ({ caller, body }) => {
    const client = await requireClient(s.db, caller, body.client);
    const row = {
      clue: newId('i_'),
      client: client.stamp,
      name: body.name,
      service: body.service,
      token_enc: s.secrets.encrypt(body.token),
      runs: 0,
      run_at: null,
      active: 1,
      created_at: now(),
    };
    await s.db.transaction().execute(async (trx) => {
      await trx.insertInto('integrations').values(row).execute();
      await audit(trx, { client: client.stamp, actor: actorOf(caller), action: 'integration.create', target: row.clue, detail: row.name });
    });
    return { apikey: integrationView(row, body.token) };
  });

  defineRenameRemove(app, s, 'integration', {
    find: (caller, clue) => requireIntegration(s.db, caller, clue),
    row: 'key',
    renamed: async (key) => ({ apikey: integrationOut(key) }),
  });
};
