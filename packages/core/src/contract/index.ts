// The one contract as core's index carries it: its plain values (constants.ts), the calls' types and reference, and
// the types of its entities and schemas. The zod schemas themselves are in table.ts (`@portal/core/contract/table`)
// with the route table, and the groups of calls load them when first used: the index builds none, so a program that
// evaluates it at start (each module's build of the CLI) pays only for the schemas of the calls it makes.
export * from './constants';
export * from './errorBody';
export * from './calls';
export * from './reference';
export type {
  Billing,
  Box,
  Bucket,
  Choice,
  Client,
  ClientApiKey,
  FitParam,
  Flight,
  IntegrationKey,
  Model,
  PermissionEntry,
  Pile,
  Plan,
  Project,
  Quote,
  Rend,
  RendRef,
  Run,
  RunEvent,
  RunEventKind,
  RunFunction,
  RunMetrics,
  Upload,
  UploadFile,
  UploadItem,
  UploadMeta,
  UploadRef,
  UploadState,
  UsageDay,
  UsageTotals,
  User,
} from './entities';
export type { AuditEntry, Invite, MailDelivery, Member } from './team';
export type { ColumnType, PreviewCell, PreviewColumn, PreviewLayer, UploadPreview } from './preview';
export type { Projection, ProjectionColour } from './projection';
export type { OtpChallengeResponse, SessionView } from './security';
export type { AccountEvent, AccountExport, AccountView } from './account';
export type { WebhookAttempt, WebhookDelivery, WebhookEndpoint, WebhookEventBody, WebhookListenLine } from './webhooks';
