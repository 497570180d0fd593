// React hooks shared by web and tui (the only place in core that imports React): thin subscriptions over core.
export { PortalProvider, useApi, useNotify, type Notifier, type NotifyAction, type NotifyKind } from './context';
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
  useUploads,
  type UploadOptions,
} from './lists';
export {
  useRunDetails,
  useQuoteDetails,
  useBilling,
  RUN_POLL_MS,
  QUOTE_UNPAID_POLL_MS,
  type RunStatusResponse,
  type QuoteStatusResponse,
} from './details';
export { useFitRequest, useShrinkRequest, type FitSubmitInput, type FitSubmitResult, type ShrinkSubmitResult } from './requests';
export { useCopy, type CopyWhat } from './useCopy';
export { useAuth, type Auth } from './useAuth';
