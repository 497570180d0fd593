// A client's API keys and integration keys: their schemas and their calls of the route table (one module of calls.ts, loaded on its own by the
// API client when a door first makes one of them).
import * as z from 'zod/mini';
import { INTEGRATION_SERVICES, INTEGRATION_TOKEN_MAX } from '../../limits';
import { MESSAGES } from '../../messages';
import { Active, ClientApiKey, Id, IntegrationKey } from '../entities';
import { ClientList, Ok, PagedClientQuery, TitleCreate, TitleRename, call, listOf } from './common';

export const ApiKeyListResponse = z.object({ client: ClientList, apikey: listOf(ClientApiKey) });
export const ApiKeyCreateBody = z.object({ client: Id, name: TitleCreate });
export const ApiKeyResponse = z.object({ apikey: ClientApiKey });
export const ApiKeyRenameBody = z.object({ apikey: Id, name: TitleRename });
export const ApiKeyRemoveBody = z.object({ apikey: Id, active: Active });

// Integration keys.
export const IntegrationListResponse = z.object({ client: ClientList, apikey: listOf(IntegrationKey) });
export const IntegrationCreateBody = z.object({
  client: Id,
  name: TitleCreate,
  service: z.enum(INTEGRATION_SERVICES),
  token: z.string().check(z.minLength(1, MESSAGES.integrationToken), z.maxLength(INTEGRATION_TOKEN_MAX, MESSAGES.integrationToken)),
});
export const IntegrationResponse = z.object({ apikey: IntegrationKey });

// ---- the calls ----
export const KEY_CALLS = {
  apikeyList: call({ method: 'GET', path: '/api/client/apikey/item', query: PagedClientQuery, response: ApiKeyListResponse }),
  apikeyCreate: call({
    method: 'PUT',
    path: '/api/client/apikey/item',
    body: ApiKeyCreateBody,
    response: ApiKeyResponse,
    failure: MESSAGES.createApiKey,
  }),
  apikeyRename: call({
    method: 'POST',
    path: '/api/client/apikey/name',
    body: ApiKeyRenameBody,
    response: ApiKeyResponse,
    failure: MESSAGES.renameApiKey,
  }),
  apikeyRemove: call({
    method: 'POST',
    path: '/api/client/apikey/remove',
    body: ApiKeyRemoveBody,
    response: Ok,
    failure: MESSAGES.removeApiKey,
  }),
  integrationList: call({
    method: 'GET',
    path: '/api/integration/apikey/item',
    query: PagedClientQuery,
    response: IntegrationListResponse,
  }),
  integrationCreate: call({
    method: 'PUT',
    path: '/api/integration/apikey/item',
    body: IntegrationCreateBody,
    response: IntegrationResponse,
  }),
  integrationRename: call({ method: 'POST', path: '/api/integration/apikey/name', body: ApiKeyRenameBody, response: IntegrationResponse }),
  integrationRemove: call({ method: 'POST', path: '/api/integration/apikey/remove', body: ApiKeyRemoveBody, response: Ok }),
} as const;
