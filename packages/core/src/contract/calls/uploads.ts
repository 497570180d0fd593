// Uploads (the wire's rends) and their files, and an upload's preview: their schemas and their calls of the route table (one module of calls.ts, loaded on its own by the
// API client when a door first makes one of them).
import * as z from 'zod/mini';
import { MESSAGES } from '../../messages';
import { Active, Bucket, Client, Id, Rend, UploadFile, UploadItem } from '../entities';
import { UploadPreviewQuery, UploadPreviewResponse } from '../preview';
import { ActiveBucketQuery, Ok, TitleCreate, TitleRename, call, listOf, plainText } from './common';

export const RendListResponse = z.object({
  client: z.optional(Client),
  bucket: z.optional(Bucket),
  rend: listOf(Rend),
});
export const RendCreateBody = z.object({ bucket: Id, name: TitleCreate });
export const RendResponse = z.object({ rend: Rend });
export const RendFinishBody = z.object({ rend: Id });
export const RendRenameBody = z.object({ rend: Id, name: TitleRename });
export const RendRemoveBody = z.object({ rend: Id, active: Active });
export const UploadRegisterBody = z.object({
  rend: Id,
  name: z.string().check(z.trim(), z.minLength(1, MESSAGES.titleCreate), z.maxLength(255), plainText),
  file: z.extend(UploadFile, {
    name: z.string().check(plainText),
    checksum: z.string().check(z.regex(/^[0-9a-f]{64}$/, 'file.checksum must be a SHA-256 in hex')),
  }),
});
export const UploadRegisterResponse = z.object({
  upload: z.extend(UploadItem, { url: z.string(), expiresAt: z.optional(z.number().check(z.int())) }),
});
export const UploadFinishBody = z.object({ upload: Id });
export const UploadResponse = z.object({ upload: UploadItem });

// ---- the calls ----
export const UPLOAD_CALLS = {
  rendList: call({
    method: 'GET',
    path: '/api/rend/item',
    query: ActiveBucketQuery,
    response: RendListResponse,
    failure: MESSAGES.fetchUploads,
  }),
  rendCreate: call({ method: 'PUT', path: '/api/rend/item', body: RendCreateBody, response: RendResponse, failure: MESSAGES.uploadFiles }),
  rendFinish: call({
    method: 'POST',
    path: '/api/rend/finish',
    body: RendFinishBody,
    response: RendResponse,
    failure: MESSAGES.uploadFiles,
  }),
  rendRename: call({
    method: 'POST',
    path: '/api/rend/name',
    body: RendRenameBody,
    response: RendResponse,
    failure: MESSAGES.renameUpload,
  }),
  rendRemove: call({ method: 'POST', path: '/api/rend/remove', body: RendRemoveBody, response: Ok, failure: MESSAGES.removeUpload }),
  uploadRegister: call({
    method: 'PUT',
    path: '/api/upload/item',
    body: UploadRegisterBody,
    response: UploadRegisterResponse,
    failure: MESSAGES.uploadFiles,
  }),
  uploadFinish: call({
    method: 'POST',
    path: '/api/upload/finish',
    body: UploadFinishBody,
    response: UploadResponse,
    failure: MESSAGES.uploadFiles,
  }),
  uploadPreview: call({ method: 'GET', path: '/api/upload/preview', query: UploadPreviewQuery, response: UploadPreviewResponse }),
} as const;
