// React hooks shared by web and tui (the only place in core that imports React): thin subscriptions over core.
export {
  PortalProvider,
  useApi,
  useNotify,
  useTimers,
  type FocusSignal,
  type Notifier,
  type NotifyAction,
  type NotifyKind,
} from './context';
export { useLoad, type Loaded, type UseLoadOptions } from './useLoad';
export { doneMessages, type ActOptions, type ListActions } from './actions';
export {
  usePermissions,
  useClient,
  useApiKeys,
  useIntegrations,
  useProjects,
  useModels,
  useRuns,
  type RunFilters,
  type PageRequest,
} from './lists';
export { useUploads, type UploadOptions, type UploadOutcome, type UploadBatch } from './uploadList';
export {
  usePager,
  useListPaging,
  WHOLE_LIST_MAX,
  SEARCH_DEBOUNCE_MS,
  SEARCH_NO_MATCH,
  CREATED_SORT,
  orderOfSort,
  type ListPaging,
  type ListPagingOptions,
  type LogPages,
  type Pager,
  type TrailStore,
  type ViewStore,
} from './pager';
export {
  useRunDetails,
  useQuoteDetails,
  useBilling,
  useUsage,
  RUN_POLL_MS,
  RUN_LIVE_POLL_MS,
  type RunDetailsData,
  type UsageResponse,
  QUOTE_UNPAID_POLL_MS,
  type RunStatusResponse,
  type QuoteStatusResponse,
} from './details';
export { useFitRequest, useShrinkRequest, type FitSubmitInput, type FitSubmitResult, type ShrinkSubmitResult } from './requests';
export { useFitColumns, type FitColumnsState } from './fitColumns';
export { useCopy, type CopyWhat } from './useCopy';
export { useAuth, type Auth } from './useAuth';
export { useMembers, useAudit, useInvite, type MembersData, type MembersScreen, type AuditScreen, type InviteScreen } from './team';
export { AUDIT_EXPORT_MAX, type AuditFilters } from './team';
export { useJumpTargets, matchJumps, jumpScreens, JUMP_PROJECTS, type JumpTarget, type JumpKind } from './search';
export { useRelatedRuns, type RelatedRuns } from './related';
export { useUploadPreview, useRunProjection, PREVIEW_POLL_MS, PREVIEW_FAILURE } from './preview';
export { useTwoFactor, type TwoFactor } from './useTwoFactor';
export { useSessions, type Sessions, type SessionRow } from './useSessions';
export { useAccountEvents, type AccountEvents, type AccountEventRow } from './useAccountEvents';
export {
  usePasswordChange,
  useEmailChange,
  useEmailConfirm,
  useAccountExport,
  useAccountDelete,
  type AccountStep,
  type PasswordChange,
  type PasswordChangeInput,
  type EmailChange,
  type EmailConfirm,
  type AccountExportScreen,
  type AccountDelete,
} from './useAccount';
export { useGetStarted, type GetStarted } from './getStarted';
export {
  useWebhooks,
  useWebhookLog,
  useWebhookDelivery,
  WEBHOOK_LOG_POLL_MS,
  type WebhooksScreen,
  type WebhookLog,
  type ShownSecret,
} from './webhooks';
