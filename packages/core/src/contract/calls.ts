// Request and response schemas of every call of SPEC section 7, and the route table that names them.
import * as z from 'zod/mini';
import { MESSAGES } from '../messages';
import { DESCRIPTION_MAX, INTEGRATION_TOKEN_MAX, INTEGRATION_SERVICES, TITLE_MAX } from '../limits';
import { OPENAI_MAX_DIMENSIONS, TEXT_EMBEDDING_MESSAGES } from '../textEmbeddings';
import { checkCompanyName, checkEmail, checkPassword, checkTitle, checkUsername } from '../rules/fields';
import { ruled } from './ruled';
import {
  Active,
  Billing,
  Bucket,
  Client,
  ClientApiKey,
  FitParam,
  Id,
  IntegrationKey,
  Model,
  PermissionEntry,
  Pile,
  Quote,
  Rend,
  Run,
  RunEvent,
  RunFunction,
  UploadFile,
  UsageDay,
  UsageTotals,
  UploadItem,
  User,
} from './entities';
import {
  AuditQuery,
  AuditResponse,
  InviteAcceptBody,
  InviteAcceptResponse,
  InviteCreateBody,
  InviteListResponse,
  InviteRemoveBody,
  InviteResponse,
  MemberListResponse,
  MemberQuery,
  MemberRemoveBody,
  MemberResponse,
  MemberRoleBody,
} from './team';
import { TEAM_MESSAGES } from '../rules/team';
import { WEBHOOK_MESSAGES } from '../rules/webhooks';
import { hasControlCharacters } from '../rules/text';
import { UploadPreviewQuery, UploadPreviewResponse } from './preview';
import { ProjectionQuery, ProjectionResponse } from './projection';
import { LoginOtpBody, OtpChallengeResponse, OtpCodeBody, OtpEnableResponse, OtpSetupResponse, OtpStatusResponse } from './security';
import { SessionEndBody, SessionEndResponse, SessionListResponse } from './security';
import {
  AccountDeleteBody,
  AccountEventsQuery,
  AccountEventsResponse,
  OtpDisableBody,
  AccountDeleteResponse,
  AccountExport,
  AccountResponse,
  EmailChangeBody,
  EmailConfirmBody,
  EmailConfirmResponse,
  PasswordChangeBody,
  PasswordChangeResponse,
} from './account';
import { USAGE_DAYS_MAX } from './constants';
import {
  WebhookCreateBody,
  WebhookDeliveriesQuery,
  WebhookDeliveriesResponse,
  WebhookDeliveryQuery,
  WebhookDeliveryResponse,
  WebhookDeliveryShowResponse,
  WebhookIdBody,
  WebhookListenLine,
  WebhookListenQuery,
  WebhookListQuery,
  WebhookListResponse,
  WebhookQuery,
  WebhookRedeliverBody,
  WebhookResponse,
  WebhookSecretResponse,
  WebhookTestBody,
  WebhookUpdateBody,
} from './webhooks';

/** Core's text rule (no control or bidi characters) as a check, after the length checks so SPEC's messages come first. */
const plainText = z.refine<string>((v) => !hasControlCharacters(v), MESSAGES.controlCharacters);
// Titles: core's title rule (checkTitle, which applies the text rule too), on the trimmed value the server stores.
export const TitleCreate = ruled((v) => checkTitle(v, 'create'), true);
export const TitleRename = ruled((v) => checkTitle(v, 'rename'), true);
export const Description = z.string().check(z.maxLength(DESCRIPTION_MAX, MESSAGES.description), plainText);

// ---- shared bodies and envelopes ----
export const Ok = z.object({ ok: z.literal(true) });
export const ErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
export type ErrorBody = z.infer<typeof ErrorBody>;
export const ERROR_CODES = {
  invalid: 'invalid_input',
  unauthorized: 'unauthorized',
  tokenMissing: 'token_missing',
  tokenExpired: 'token_expired',
  forbidden: 'forbidden',
  notFound: 'not_found',
  conflict: 'conflict',
  tooLarge: 'too_large',
  /** A 503 of /api/ready: this process should get no traffic now (starting, stopping, or a part it needs is down). */
  notReady: 'not_ready',
  rateLimited: 'rate_limited',
  /** A 401 about an invitation link (expired, withdrawn or used), not about the session: the sign-in stays. */
  inviteInvalid: 'invite_invalid',
  /** A 507: the server's disk (storage or database) is full; nothing of the call was saved. */
  storageFull: 'storage_full',
  internal: 'internal',
} as const;

/** A whole number from 1 to `max` in a query, each refusal naming the field and the range. */
const wholeUpTo = (field: string, max: number) =>
  z.coerce
    .number(`${field} must be a whole number from 1 to ${max}`)
    .check(
      z.int(`${field} must be a whole number from 1 to ${max}`),
      z.minimum(1, `${field} must be from 1 to ${max}`),
      z.maximum(max, `${field} must be from 1 to ${max}`),
    );

/** Most rows one page of a list carries. */
export const LIST_PAGE_MAX = 200;
/**
 * An optional page of a list: `limit` rows after `cursor` (the `next` of the page before). A list asked for a page
 * answers `next` beside `list` (null on the last page); asked without, it answers every row, as SPEC says.
 */
const Page = {
  limit: z.optional(wholeUpTo('limit', LIST_PAGE_MAX)),
  cursor: z.optional(
    z.string().check(z.regex(/^[0-9]{1,15}\.[0-9]{1,18}(\.[no])?$/, 'cursor must be the next value of an earlier page of this list')),
  ),
};
/** The orders a paged list can be asked for (`order`); without one, each list keeps its own (docs/DECISIONS.md). */
export const LIST_ORDERS = ['newest', 'oldest'] as const;
export type ListOrder = (typeof LIST_ORDERS)[number];
/**
 * A page of a project, upload, request or model list can also be asked in an order (`order`) and narrowed to names
 * containing `q` (any case, trimmed; an empty `q` narrows nothing). Only with a page (`limit` or `cursor`): the
 * whole list is SPEC's.
 */
const SearchPage = {
  ...Page,
  order: z.optional(z.enum(LIST_ORDERS, 'order must be newest or oldest')),
  q: z.optional(z.string().check(z.trim(), z.maxLength(TITLE_MAX, `q must be at most ${TITLE_MAX} characters`))),
};
/** A list envelope: the rows, and `next` when a page was asked for. */
const listOf = <T extends z.ZodMiniType>(row: T) => z.object({ list: z.array(row), next: z.optional(z.nullable(z.string())) });
export type PageQuery = { limit?: number; cursor?: string; order?: ListOrder; q?: string };

const ClientQuery = z.object({ client: Id });
const ActiveClientQuery = z.object({ active: z.optional(z.coerce.number().check(z.int())), client: Id, ...SearchPage });
const ActiveBucketQuery = z.object({ active: z.optional(z.coerce.number().check(z.int())), bucket: Id, ...SearchPage });
const PagedClientQuery = z.object({ client: Id, ...Page });
const ActiveQuery = z.object({ active: z.optional(z.coerce.number().check(z.int())) });
const ClientList = z.object({ list: z.array(Client) });

// ---- user ----
export const LoginResponse = z.object({
  login: z.object({
    client: ClientList,
    bucket: z.object({ list: z.array(Bucket) }),
    user: z.optional(User),
  }),
  token: z.string(),
});
/** The password step: a session, or (two-factor sign-in on) a challenge for the second step. */
export const LoginStepResponse = z.union([LoginResponse, OtpChallengeResponse]);
export const SignupBody = z.object({
  email: ruled(checkEmail),
  username: ruled(checkUsername),
  password: ruled(checkPassword),
  name: ruled(checkCompanyName),
});
export const ResetStartBody = z.object({
  email: z.string().check(z.trim(), z.minLength(1, MESSAGES.email), z.maxLength(254, MESSAGES.email)),
});
export const ResetFinishBody = z.object({ password: ruled(checkPassword) });
export const TokenResponse = z.object({ token: z.string() });
/** The permission list arrives as an array or as `permission.list`; both parse to the array. */
export const PermissionResponse = z.union([
  z.array(PermissionEntry),
  z.pipe(
    z.object({ permission: z.object({ list: z.array(PermissionEntry) }) }),
    z.transform((r: { permission: { list: PermissionEntry[] } }) => r.permission.list),
  ),
]);

// ---- client API keys ----
export const ApiKeyListResponse = z.object({ client: ClientList, apikey: listOf(ClientApiKey) });
export const ApiKeyCreateBody = z.object({ client: Id, name: TitleCreate });
export const ApiKeyResponse = z.object({ apikey: ClientApiKey });
export const ApiKeyRenameBody = z.object({ apikey: Id, name: TitleRename });
export const ApiKeyRemoveBody = z.object({ apikey: Id, active: Active });

// ---- integration keys ----
export const IntegrationListResponse = z.object({ client: ClientList, apikey: listOf(IntegrationKey) });
export const IntegrationCreateBody = z.object({
  client: Id,
  name: TitleCreate,
  service: z.enum(INTEGRATION_SERVICES),
  token: z.string().check(z.minLength(1, MESSAGES.integrationToken), z.maxLength(INTEGRATION_TOKEN_MAX, MESSAGES.integrationToken)),
});
export const IntegrationResponse = z.object({ apikey: IntegrationKey });

// ---- projects (buckets) ----
export const BucketListResponse = z.object({ client: ClientList, bucket: listOf(Bucket) });
export const BucketCreateBody = z.object({ client: Id, name: TitleCreate });
export const BucketResponse = z.object({ bucket: Bucket });
export const BucketRenameBody = z.object({ bucket: Id, name: TitleRename });
export const BucketRemoveBody = z.object({ bucket: Id, active: Active });

// ---- models ----
export const ClientModelListResponse = z.object({ client: Client, bucket: Bucket, model: listOf(Model) });
export const GeneralModelListResponse = z.object({ model: z.object({ list: z.array(Model) }) });
export const ModelRenameBody = z.object({ model: Id, name: TitleRename });
export const ModelResponse = z.object({ model: Model });
export const ModelRemoveBody = z.object({ model: Id, active: Active });

// ---- runs ----
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

// ---- usage ----
export const UsageQuery = z.object({
  client: Id,
  days: z._default(wholeUpTo('days', USAGE_DAYS_MAX), 30),
  /** Only this project's usage (the per-project split still lists every project). */
  bucket: z.optional(Id),
});
/** A quote as the usage page lists it: with its project, so it links to its details. */
export const UsageQuote = z.extend(Quote, { bucket: Id });
export type UsageQuote = z.infer<typeof UsageQuote>;
/** One project's share of the period: its requests, input parameters and amount quoted. */
export const UsageProject = z.extend(UsageTotals, { bucket: Id, name: z.string() });
export type UsageProject = z.infer<typeof UsageProject>;
export const UsageResponse = z.object({
  usage: z.object({ days: z.array(UsageDay), totals: UsageTotals, projects: z.optional(z.array(UsageProject)) }),
  quote: z.object({ list: z.array(UsageQuote) }),
});

// ---- uploads (rends and items) ----
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

// ---- requests, quotes and billing ----
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
export const ShrinkCreateBody = z.object({
  bucket: Id,
  function: z.literal('shrink'),
  rend: Id,
  pile: Id,
  name: TitleCreate,
  desc: z._default(Description, ''),
});
export const QuoteResponse = z.object({ quote: Quote });
export const QuoteStatusQuery = z.object({ quote: Id });
export const QuoteStatusResponse = z.object({
  client: Client,
  bucket: Bucket,
  quote: z.object({ record: Quote, run: z.nullable(Run) }),
});
export const BillingResponse = z.object({ billing: Billing });
export const HealthResponse = z.object({ ok: z.literal(true) });
/** Readiness: each part (database, storage, ...) answers 'ok'; a 503 carries the same `checks` with a sentence for the failing part. */
export const ReadyResponse = z.object({ ok: z.literal(true), checks: z.record(z.string(), z.string()) });

// ---- the route table ----
export type Auth = 'none' | 'basic' | 'bearer' | 'reset';
export interface CallDef {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  auth: Auth;
  query?: z.ZodMiniType;
  body?: z.ZodMiniType;
  response: z.ZodMiniType;
  /** The SPEC message shown when this call fails (section 8), where SPEC names one. */
  failure?: string;
  /** The answer is a stream of lines of this media type, each one `response` (the listen stream). */
  stream?: 'application/x-ndjson';
}

const call = <const D extends CallDef>(d: D) => d;

export const CALLS = {
  health: call({ method: 'GET', path: '/api/health', auth: 'none', response: HealthResponse }),
  ready: call({ method: 'GET', path: '/api/ready', auth: 'none', response: ReadyResponse }),
  login: call({
    method: 'POST',
    path: '/api/user/login',
    auth: 'basic',
    response: LoginStepResponse,
    failure: MESSAGES.invalidCredentials,
  }),
  signup: call({
    method: 'POST',
    path: '/api/user/signup',
    auth: 'none',
    body: SignupBody,
    response: LoginResponse,
    failure: MESSAGES.signupFailed,
  }),
  resetStart: call({
    method: 'POST',
    path: '/api/user/password/reset/start',
    auth: 'none',
    body: ResetStartBody,
    response: Ok,
    failure: MESSAGES.invalidCredentials,
  }),
  resetFinish: call({
    method: 'POST',
    path: '/api/user/password/reset/finish',
    auth: 'reset',
    body: ResetFinishBody,
    response: Ok,
    failure: MESSAGES.invalidCredentials,
  }),
  refresh: call({ method: 'POST', path: '/api/user/refresh', auth: 'bearer', response: TokenResponse }),
  logout: call({ method: 'POST', path: '/api/user/logout', auth: 'bearer', response: Ok }),
  permissions: call({
    method: 'GET',
    path: '/api/user/permission',
    auth: 'bearer',
    response: PermissionResponse,
    failure: MESSAGES.fetchPermissions,
  }),

  apikeyList: call({
    method: 'GET',
    path: '/api/client/apikey/item',
    auth: 'bearer',
    query: PagedClientQuery,
    response: ApiKeyListResponse,
  }),
  apikeyCreate: call({
    method: 'PUT',
    path: '/api/client/apikey/item',
    auth: 'bearer',
    body: ApiKeyCreateBody,
    response: ApiKeyResponse,
    failure: MESSAGES.createApiKey,
  }),
  apikeyRename: call({
    method: 'POST',
    path: '/api/client/apikey/name',
    auth: 'bearer',
    body: ApiKeyRenameBody,
    response: ApiKeyResponse,
    failure: MESSAGES.renameApiKey,
  }),
  apikeyRemove: call({
    method: 'POST',
    path: '/api/client/apikey/remove',
    auth: 'bearer',
    body: ApiKeyRemoveBody,
    response: Ok,
    failure: MESSAGES.removeApiKey,
  }),

  integrationList: call({
    method: 'GET',
    path: '/api/integration/apikey/item',
    auth: 'bearer',
    query: PagedClientQuery,
    response: IntegrationListResponse,
  }),
  integrationCreate: call({
    method: 'PUT',
    path: '/api/integration/apikey/item',
    auth: 'bearer',
    body: IntegrationCreateBody,
    response: IntegrationResponse,
  }),
  integrationRename: call({
    method: 'POST',
    path: '/api/integration/apikey/name',
    auth: 'bearer',
    body: ApiKeyRenameBody,
    response: IntegrationResponse,
  }),
  integrationRemove: call({ method: 'POST', path: '/api/integration/apikey/remove', auth: 'bearer', body: ApiKeyRemoveBody, response: Ok }),

  bucketList: call({ method: 'GET', path: '/api/bucket/item', auth: 'bearer', query: ActiveClientQuery, response: BucketListResponse }),
  bucketCreate: call({
    method: 'PUT',
    path: '/api/bucket/item',
    auth: 'bearer',
    body: BucketCreateBody,
    response: BucketResponse,
    failure: MESSAGES.createProject,
  }),
  bucketRename: call({
    method: 'POST',
    path: '/api/bucket/name',
    auth: 'bearer',
    body: BucketRenameBody,
    response: BucketResponse,
    failure: MESSAGES.renameProject,
  }),
  bucketRemove: call({
    method: 'POST',
    path: '/api/bucket/remove',
    auth: 'bearer',
    body: BucketRemoveBody,
    response: Ok,
    failure: MESSAGES.removeProject,
  }),

  clientModelList: call({
    method: 'GET',
    path: '/api/client/model/item',
    auth: 'bearer',
    query: ActiveBucketQuery,
    response: ClientModelListResponse,
  }),
  generalModelList: call({
    method: 'GET',
    path: '/api/general/model/item',
    auth: 'bearer',
    query: ActiveQuery,
    response: GeneralModelListResponse,
  }),
  modelRename: call({
    method: 'POST',
    path: '/api/client/model/name',
    auth: 'bearer',
    body: ModelRenameBody,
    response: ModelResponse,
    failure: MESSAGES.renameModel,
  }),
  modelRemove: call({
    method: 'POST',
    path: '/api/client/model/remove',
    auth: 'bearer',
    body: ModelRemoveBody,
    response: Ok,
    failure: MESSAGES.removeModel,
  }),

  runList: call({
    method: 'GET',
    path: '/api/run/item',
    auth: 'bearer',
    query: RunListQuery,
    response: RunListResponse,
    failure: MESSAGES.loadRequests,
  }),
  runRename: call({
    method: 'POST',
    path: '/api/run/name',
    auth: 'bearer',
    body: RunRenameBody,
    response: RunResponse,
    failure: MESSAGES.renameRun,
  }),
  runRemove: call({
    method: 'POST',
    path: '/api/run/remove',
    auth: 'bearer',
    body: RunRemoveBody,
    response: Ok,
    failure: MESSAGES.removeRun,
  }),
  runStatus: call({
    method: 'GET',
    path: '/api/run/status',
    auth: 'bearer',
    query: RunStatusQuery,
    response: RunStatusResponse,
    failure: MESSAGES.loadRun,
  }),
  runEvents: call({
    method: 'GET',
    path: '/api/run/events',
    auth: 'bearer',
    query: RunEventsQuery,
    response: RunEventsResponse,
    failure: MESSAGES.loadRun,
  }),
  runRerun: call({
    method: 'PUT',
    path: '/api/run/item/rerun',
    auth: 'bearer',
    body: RunRerunBody,
    response: RunRerunResponse,
    failure: MESSAGES.createRequest,
  }),
  clientUsage: call({ method: 'GET', path: '/api/client/usage', auth: 'bearer', query: UsageQuery, response: UsageResponse }),

  rendList: call({
    method: 'GET',
    path: '/api/rend/item',
    auth: 'bearer',
    query: ActiveBucketQuery,
    response: RendListResponse,
    failure: MESSAGES.fetchUploads,
  }),
  rendCreate: call({
    method: 'PUT',
    path: '/api/rend/item',
    auth: 'bearer',
    body: RendCreateBody,
    response: RendResponse,
    failure: MESSAGES.uploadFiles,
  }),
  rendFinish: call({
    method: 'POST',
    path: '/api/rend/finish',
    auth: 'bearer',
    body: RendFinishBody,
    response: RendResponse,
    failure: MESSAGES.uploadFiles,
  }),
  rendRename: call({
    method: 'POST',
    path: '/api/rend/name',
    auth: 'bearer',
    body: RendRenameBody,
    response: RendResponse,
    failure: MESSAGES.renameUpload,
  }),
  rendRemove: call({
    method: 'POST',
    path: '/api/rend/remove',
    auth: 'bearer',
    body: RendRemoveBody,
    response: Ok,
    failure: MESSAGES.removeUpload,
  }),
  uploadRegister: call({
    method: 'PUT',
    path: '/api/upload/item',
    auth: 'bearer',
    body: UploadRegisterBody,
    response: UploadRegisterResponse,
    failure: MESSAGES.uploadFiles,
  }),
  uploadFinish: call({
    method: 'POST',
    path: '/api/upload/finish',
    auth: 'bearer',
    body: UploadFinishBody,
    response: UploadResponse,
    failure: MESSAGES.uploadFiles,
  }),

  pileCreate: call({
    method: 'PUT',
    path: '/api/pile/item',
    auth: 'bearer',
    body: PileCreateBody,
    response: PileResponse,
    failure: MESSAGES.createRequest,
  }),
  runCreate: call({
    method: 'PUT',
    path: '/api/run/item/generate',
    auth: 'bearer',
    body: RunCreateBody,
    response: RunResponse,
    failure: MESSAGES.createRequest,
  }),
  shrinkCreate: call({
    method: 'PUT',
    path: '/api/run/item/shrink',
    auth: 'bearer',
    body: ShrinkCreateBody,
    response: QuoteResponse,
    failure: MESSAGES.createRequest,
  }),
  quoteStatus: call({
    method: 'GET',
    path: '/api/quote/status',
    auth: 'bearer',
    query: QuoteStatusQuery,
    response: QuoteStatusResponse,
    failure: MESSAGES.loadQuote,
  }),
  billingStatus: call({ method: 'GET', path: '/api/client/billing/status', auth: 'bearer', query: ClientQuery, response: BillingResponse }),

  // ---- team: members, invitations, roles, audit log (DESIGN.md's additions) ----
  memberList: call({
    method: 'GET',
    path: '/api/client/member/item',
    auth: 'bearer',
    query: MemberQuery,
    response: MemberListResponse,
    failure: TEAM_MESSAGES.loadMembers,
  }),
  // The team calls' refusals are the server's own sentences (already a member, the last owner, ...): no failure text hides them.
  inviteCreate: call({
    method: 'PUT',
    path: '/api/client/member/invite',
    auth: 'bearer',
    body: InviteCreateBody,
    response: InviteResponse,
  }),
  inviteList: call({ method: 'GET', path: '/api/client/member/invite', auth: 'bearer', query: MemberQuery, response: InviteListResponse }),
  inviteRemove: call({ method: 'POST', path: '/api/client/member/invite/remove', auth: 'bearer', body: InviteRemoveBody, response: Ok }),
  inviteAccept: call({
    method: 'POST',
    path: '/api/client/member/accept',
    auth: 'bearer',
    body: InviteAcceptBody,
    response: InviteAcceptResponse,
  }),
  memberRole: call({ method: 'POST', path: '/api/client/member/role', auth: 'bearer', body: MemberRoleBody, response: MemberResponse }),
  memberRemove: call({ method: 'POST', path: '/api/client/member/remove', auth: 'bearer', body: MemberRemoveBody, response: Ok }),
  audit: call({
    method: 'GET',
    path: '/api/client/audit',
    auth: 'bearer',
    query: AuditQuery,
    response: AuditResponse,
    failure: TEAM_MESSAGES.loadAudit,
  }),

  // ---- seeing the data (issue 29) ----
  uploadPreview: call({
    method: 'GET',
    path: '/api/upload/preview',
    auth: 'bearer',
    query: UploadPreviewQuery,
    response: UploadPreviewResponse,
  }),
  runProjection: call({ method: 'GET', path: '/api/run/projection', auth: 'bearer', query: ProjectionQuery, response: ProjectionResponse }),
  // ---- account security: two-factor sign-in ----
  // The second step of a sign-in: the challenge the password step gave and a code; answers as login does.
  loginOtp: call({ method: 'POST', path: '/api/user/login/otp', auth: 'none', body: LoginOtpBody, response: LoginResponse }),
  otpStatus: call({ method: 'GET', path: '/api/user/otp', auth: 'bearer', response: OtpStatusResponse }),
  otpSetup: call({ method: 'POST', path: '/api/user/otp/setup', auth: 'bearer', response: OtpSetupResponse }),
  otpEnable: call({ method: 'POST', path: '/api/user/otp/enable', auth: 'bearer', body: OtpCodeBody, response: OtpEnableResponse }),
  otpDisable: call({ method: 'POST', path: '/api/user/otp/disable', auth: 'bearer', body: OtpDisableBody, response: Ok }),
  // ---- account security: sessions you can see ----
  sessionList: call({ method: 'GET', path: '/api/user/session', auth: 'bearer', response: SessionListResponse }),
  sessionEnd: call({ method: 'POST', path: '/api/user/session/end', auth: 'bearer', body: SessionEndBody, response: SessionEndResponse }),
  sessionEndOthers: call({ method: 'POST', path: '/api/user/session/end-others', auth: 'bearer', response: SessionEndResponse }),
  // ---- account changes, export and deletion (issue 30, steps 3-5) ----
  accountShow: call({ method: 'GET', path: '/api/user/account', auth: 'bearer', response: AccountResponse }),
  // The user's own account-security events, newest first, a page at a time (never in a client's audit log).
  accountEvents: call({
    method: 'GET',
    path: '/api/user/account/events',
    auth: 'bearer',
    query: AccountEventsQuery,
    response: AccountEventsResponse,
  }),
  // The current password and a new one by the sign-up rule; every other session of the account ends.
  passwordChange: call({
    method: 'POST',
    path: '/api/user/password/change',
    auth: 'bearer',
    body: PasswordChangeBody,
    response: PasswordChangeResponse,
  }),
  // Mails a confirmation link to the new address (and a notice to the old one); the address changes on emailConfirm.
  emailChange: call({ method: 'POST', path: '/api/user/email/change', auth: 'bearer', body: EmailChangeBody, response: AccountResponse }),
  emailChangeCancel: call({ method: 'POST', path: '/api/user/email/cancel', auth: 'bearer', response: AccountResponse }),
  // The link's token alone (the link may be opened signed out, on another device): it proves the new address.
  emailConfirm: call({
    method: 'POST',
    path: '/api/user/email/confirm',
    auth: 'none',
    body: EmailConfirmBody,
    response: EmailConfirmResponse,
  }),
  // Everything the account holds, as one JSON file (an attachment); secrets and tokens never.
  accountExport: call({ method: 'GET', path: '/api/user/export', auth: 'bearer', response: AccountExport }),
  accountDelete: call({
    method: 'POST',
    path: '/api/user/delete',
    auth: 'bearer',
    body: AccountDeleteBody,
    response: AccountDeleteResponse,
  }),

  // ---- webhooks: a client's endpoints, their delivery log, and the listen stream (DESIGN.md, fourth round) ----
  // Owners only; the refusals are the server's own sentences (an address it will not send to, too many endpoints).
  webhookList: call({
    method: 'GET',
    path: '/api/client/webhook/item',
    auth: 'bearer',
    query: WebhookListQuery,
    response: WebhookListResponse,
    failure: WEBHOOK_MESSAGES.loadEndpoints,
  }),
  // Answers the signing secret this once.
  webhookCreate: call({
    method: 'PUT',
    path: '/api/client/webhook/item',
    auth: 'bearer',
    body: WebhookCreateBody,
    response: WebhookSecretResponse,
  }),
  webhookShow: call({ method: 'GET', path: '/api/client/webhook/show', auth: 'bearer', query: WebhookQuery, response: WebhookResponse }),
  // Rename, change the URL or the events, pause (active 0) or resume (active 1).
  webhookUpdate: call({
    method: 'POST',
    path: '/api/client/webhook/update',
    auth: 'bearer',
    body: WebhookUpdateBody,
    response: WebhookResponse,
  }),
  // A new secret, answered once; the old one keeps signing beside it for WEBHOOK_ROTATION_HOURS.
  webhookRotate: call({
    method: 'POST',
    path: '/api/client/webhook/rotate',
    auth: 'bearer',
    body: WebhookIdBody,
    response: WebhookSecretResponse,
  }),
  webhookRemove: call({ method: 'POST', path: '/api/client/webhook/remove', auth: 'bearer', body: WebhookIdBody, response: Ok }),
  webhookTest: call({
    method: 'POST',
    path: '/api/client/webhook/test',
    auth: 'bearer',
    body: WebhookTestBody,
    response: WebhookDeliveryResponse,
  }),
  webhookDeliveries: call({
    method: 'GET',
    path: '/api/client/webhook/delivery',
    auth: 'bearer',
    query: WebhookDeliveriesQuery,
    response: WebhookDeliveriesResponse,
    failure: WEBHOOK_MESSAGES.loadDeliveries,
  }),
  webhookDelivery: call({
    method: 'GET',
    path: '/api/client/webhook/delivery/show',
    auth: 'bearer',
    query: WebhookDeliveryQuery,
    response: WebhookDeliveryShowResponse,
  }),
  webhookRedeliver: call({
    method: 'POST',
    path: '/api/client/webhook/delivery/redeliver',
    auth: 'bearer',
    body: WebhookRedeliverBody,
    response: WebhookDeliveryResponse,
  }),
  // A long-lived NDJSON stream (application/x-ndjson): each line a WebhookListenLine; the response schema is one line.
  webhookListen: call({
    method: 'GET',
    path: '/api/client/webhook/listen',
    auth: 'bearer',
    query: WebhookListenQuery,
    response: WebhookListenLine,
    stream: 'application/x-ndjson',
  }),
} as const;

export type CallName = keyof typeof CALLS;
export type CallQuery<N extends CallName> = (typeof CALLS)[N] extends { query: infer Q extends z.ZodMiniType } ? z.input<Q> : undefined;
export type CallBody<N extends CallName> = (typeof CALLS)[N] extends { body: infer B extends z.ZodMiniType } ? z.input<B> : undefined;
export type CallResponse<N extends CallName> = z.output<(typeof CALLS)[N]['response']>;

/** Where the storage endpoint lives: the signed URL of an upload points here (local store). */
export const STORAGE_PATH_PREFIX = '/api/storage/';
/** Where the installer packages are served (`pip install <base>/api/pack/<file>`). */
export const PACK_PATH_PREFIX = '/api/pack/';
