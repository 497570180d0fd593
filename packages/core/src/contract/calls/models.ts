// A project's models and the general ones: their schemas and their calls of the route table (one module of calls.ts, loaded on its own by the
// API client when a door first makes one of them).
import * as z from 'zod/mini';
import { MESSAGES } from '../../messages';
import { Active, Bucket, Client, Id, Model } from '../entities';
import { ActiveBucketQuery, ActiveQuery, Ok, TitleRename, call, listOf } from './common';

export const ClientModelListResponse = z.object({ client: Client, bucket: Bucket, model: listOf(Model) });
export const GeneralModelListResponse = z.object({ model: z.object({ list: z.array(Model) }) });
export const ModelRenameBody = z.object({ model: Id, name: TitleRename });
export const ModelResponse = z.object({ model: Model });
export const ModelRemoveBody = z.object({ model: Id, active: Active });

// ---- the calls ----
export const MODEL_CALLS = {
  clientModelList: call({ method: 'GET', path: '/api/client/model/item', query: ActiveBucketQuery, response: ClientModelListResponse }),
  generalModelList: call({ method: 'GET', path: '/api/general/model/item', query: ActiveQuery, response: GeneralModelListResponse }),
  modelRename: call({
    method: 'POST',
    path: '/api/client/model/name',
    body: ModelRenameBody,
    response: ModelResponse,
    failure: MESSAGES.renameModel,
  }),
  modelRemove: call({
    method: 'POST',
    path: '/api/client/model/remove',
    body: ModelRemoveBody,
    response: Ok,
    failure: MESSAGES.removeModel,
  }),
} as const;
