// Requests (the wire's runs): fit, generate and shrink, their events, reruns and maps: their schemas and their calls of the route table (one module of calls.ts, loaded on its own by the
// API client when a door first makes one of them).
import * as z from 'zod/mini';
import { MESSAGES } from '../../messages';
import { OPENAI_MAX_DIMENSIONS, TEXT_EMBEDDING_MESSAGES } from '../../textEmbeddings';
import { Active, Bucket, Client, FitParam, Id, Pile, Quote, Run, RunEvent, RunFunction } from '../entities';
import { ProjectionQuery, ProjectionResponse } from '../projection';
import { Description, Ok, SearchPage, TitleCreate, TitleRename, call, listOf } from './common';

/** The requests list, optionally narrowed to one state and one function. */
export const RunListQuery = z.object({
  active: z.optional(z.coerce.number().check(z.int())),
  bucket: Id,
  state: z.optional(z.string().check(z.minLength(1), z.maxLength(20))),
  function: z.optional(RunFunction),
  ...SearchPage,
});
export const RunListResponse = z.object({ client: Client, bucket: Bucket, run: listOf(Run) });
export const RunRenameBody = z.object({ run: Id, name: TitleRename });
export const RunResponse = z.object({ run: Run });
export const RunRemoveBody = z.object({ run: Id, active: Active });
export const RunStatusQuery = z.object({ run: Id });
export const RunStatusResponse = z.object({
  client: z.optional(Client),
  bucket: z.optional(Bucket),
  run: z.object({ record: Run, url: z.nullable(z.string()) }),
});
export const RunEventsQuery = z.object({ run: Id, after: z.optional(z.coerce.number().check(z.int(), z.nonnegative())) });
export const RunEventsResponse = z.object({ event: z.object({ list: z.array(RunEvent) }) });
export const RunRerunBody = z.object({ run: Id });
/** The new run; for a fit also the new generate run that applies its model. */
export const RunRerunResponse = z.object({ run: Run, generate: z.optional(z.nullable(Run)) });

export const PileCreateBody = z.discriminatedUnion('variety', [
  z.object({ bucket: Id, variety: z.literal('FitModel'), param: FitParam }),
  z.object({ bucket: Id, variety: z.literal('ShrinkService'), param: z.object({}) }),
]);
export const PileResponse = z.object({ pile: Pile });
export const RunCreateBody = z.discriminatedUnion('function', [
  z.object({ bucket: Id, function: z.literal('fit'), rend: Id, pile: Id, name: TitleCreate }),
  z.object({
    bucket: Id,
    function: z.literal('generate'),
    rend: Id,
    fit: Id,
    name: TitleCreate,
    /** The vectors' width, for the OpenAI text embeddings model only (its default otherwise). */
    dimensions: z.optional(
      z
        .number(TEXT_EMBEDDING_MESSAGES.dimensions)
        .check(
          z.int(TEXT_EMBEDDING_MESSAGES.dimensions),
          z.minimum(1, TEXT_EMBEDDING_MESSAGES.dimensions),
          z.maximum(OPENAI_MAX_DIMENSIONS, TEXT_EMBEDDING_MESSAGES.dimensions),
        ),
    ),
  }),
]);
/** A shrink request answers its quote, to be paid before it runs. */
export const QuoteResponse = z.object({ quote: Quote });
export const ShrinkCreateBody = z.object({
  bucket: Id,
  function: z.literal('shrink'),
  rend: Id,
  pile: Id,
  name: TitleCreate,
  desc: z._default(Description, ''),
});

// ---- the calls ----
export const REQUEST_CALLS = {
  runList: call({ method: 'GET', path: '/api/run/item', query: RunListQuery, response: RunListResponse, failure: MESSAGES.loadRequests }),
  runRename: call({ method: 'POST', path: '/api/run/name', body: RunRenameBody, response: RunResponse, failure: MESSAGES.renameRun }),
  runRemove: call({ method: 'POST', path: '/api/run/remove', body: RunRemoveBody, response: Ok, failure: MESSAGES.removeRun }),
  runStatus: call({
    method: 'GET',
    path: '/api/run/status',
    query: RunStatusQuery,
    response: RunStatusResponse,
    failure: MESSAGES.loadRun,
  }),
  runEvents: call({
    method: 'GET',
    path: '/api/run/events',
    query: RunEventsQuery,
    response: RunEventsResponse,
    failure: MESSAGES.loadRun,
  }),
  runRerun: call({
    method: 'PUT',
    path: '/api/run/item/rerun',
    body: RunRerunBody,
    response: RunRerunResponse,
    failure: MESSAGES.createRequest,
  }),
  pileCreate: call({
    method: 'PUT',
    path: '/api/pile/item',
    body: PileCreateBody,
    response: PileResponse,
    failure: MESSAGES.createRequest,
  }),
  runCreate: call({
    method: 'PUT',
    path: '/api/run/item/generate',
    body: RunCreateBody,
    response: RunResponse,
    failure: MESSAGES.createRequest,
  }),
  shrinkCreate: call({
    method: 'PUT',
    path: '/api/run/item/shrink',
    body: ShrinkCreateBody,
    response: QuoteResponse,
    failure: MESSAGES.createRequest,
  }),
  runProjection: call({ method: 'GET', path: '/api/run/projection', query: ProjectionQuery, response: ProjectionResponse }),
} as const;
