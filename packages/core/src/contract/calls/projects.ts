// Projects (the wire's buckets): their schemas and their calls of the route table (one module of calls.ts, loaded on its own by the
// API client when a door first makes one of them).
import * as z from 'zod/mini';
import { MESSAGES } from '../../messages';
import { Active, Bucket, Id } from '../entities';
import { ActiveClientQuery, ClientList, Ok, TitleCreate, TitleRename, call, listOf } from './common';

export const BucketListResponse = z.object({ client: ClientList, bucket: listOf(Bucket) });
export const BucketCreateBody = z.object({ client: Id, name: TitleCreate });
export const BucketResponse = z.object({ bucket: Bucket });
export const BucketRenameBody = z.object({ bucket: Id, name: TitleRename });
export const BucketRemoveBody = z.object({ bucket: Id, active: Active });

// ---- the calls ----
export const PROJECT_CALLS = {
  bucketList: call({ method: 'GET', path: '/api/bucket/item', query: ActiveClientQuery, response: BucketListResponse }),
  bucketCreate: call({
    method: 'PUT',
    path: '/api/bucket/item',
    body: BucketCreateBody,
    response: BucketResponse,
    failure: MESSAGES.createProject,
  }),
  bucketRename: call({
    method: 'POST',
    path: '/api/bucket/name',
    body: BucketRenameBody,
    response: BucketResponse,
    failure: MESSAGES.renameProject,
  }),
  bucketRemove: call({ method: 'POST', path: '/api/bucket/remove', body: BucketRemoveBody, response: Ok, failure: MESSAGES.removeProject }),
} as const;
