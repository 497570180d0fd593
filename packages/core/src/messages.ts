// Every user-facing text that SPEC.md fixes, word for word, used by all three doors, the server and the tests.

export const MESSAGES = {
  // Section 5: validation
  titleCreate: 'Please enter the title between 1 and 60 characters long',
  titleRename: 'Title must be between 1 and 60 characters long',
  integrationToken: 'Token must be between 1 and 10,000 characters long',
  description: 'Description must be at most 300 characters long',
  email: 'Invalid email address.',
  /** Not SPEC's: the text rule's one sentence (control characters and bidi controls, often pasted unseen). */
  controlCharacters: 'Remove the invisible control characters from this text.',
  username: 'Username must be alphanumeric, with dashes or underscores, and between 5 and 30 characters long.',
  companyName: 'Name must be between 5 and 50 characters long.',
  password: 'Password must be 8-64 characters long, include an uppercase letter, a lowercase letter, a number, and a special character.',
  passwordMismatch: 'Passwords do not match.',
  terms: 'You must agree to the privacy policy and terms of service.',
  fillAllFields: 'Please fill out all fields',
  selectUpload: 'Please select an upload for this request',
  selectModel: 'Please select a Finished model to reuse',
  uploadNotFound: 'Selected upload not found',
  generateFileNotFound: 'File for generating not found',
  tooManyFiles: (n: number) => `You can only upload up to ${n} files.`,
  fileTooLarge: 'One or more files exceed the max size limit.',
  invalidFileType: (list: readonly string[]) => `Invalid file type. Allowed: ${list.join(', ')}`,
  planLimitInputs: (plan: string, n: number) => `${plan} plans are limited to ${n} input features`,
  planLimitOutputs: (plan: string, n: number) => `${plan} plans are limited to ${n} output features`,
  planLimitTarget: (plan: string, n: number) => `${plan} plans are limited to ${n} target size`,
  enterpriseLimit: (n: number) => `${n} is the initial limit, contact us for a limit increase at no cost`,
  atLeastOne: 'Must be at least 1',
  explainabilityNotAllowed: 'Explainability is not available on the Individual plan',
  shrinkSingleFile: 'Please choose a single .py model file',

  // Section 8: errors and notices
  invalidCredentials: 'Invalid credentials',
  signupFailed: 'Sign up failed. Please try again.',
  unexpected: 'An unexpected error occurred. Please try again.',
  /** A write the server's disk (its storage or its database) had no room for (507). */
  storageFull: "The server's storage is full, so nothing was saved: try again later, or ask the operator to free disk space.",
  resetStarted: "If your email is registered, you'll receive instructions shortly.",
  passwordChanged: 'Password has been changed.',
  tokenMissing: 'Token missing',
  tokenExpired: 'Token expired',
  fetchPermissions: 'Error fetching permissions',
  createApiKey: 'Failed to create API key. Please try again.',
  removeApiKey: 'Failed to remove API key. Please try again.',
  renameApiKey: 'Failed to rename API key. Please try again.',
  createProject: 'Failed to create project. Please try again.',
  removeProject: 'Failed to remove project. Please try again.',
  renameProject: 'Failed to rename project. Please try again.',
  removeUpload: 'Failed to remove upload. Please try again.',
  renameUpload: 'Failed to rename Upload. Please try again.',
  removeModel: 'Failed to remove model. Please try again.',
  renameModel: 'Failed to rename model. Please try again.',
  removeRun: 'Failed to remove data transformation. Please try again.',
  renameRun: 'Failed to rename transformation. Please try again.',
  loadRun: 'Failed to load run data.',
  loadQuote: 'Failed to load quote data.',
  loadTransformations: 'Failed to load data transformations',
  loadRequests: 'Failed to load requests',
  createRequest: 'Failed to create request',
  fetchUploads: 'Failed to fetch uploads.',
  uploadFiles: 'Failed to upload files.',
  uploadDataNotFound: 'Rend data not found for the selected run',
  copyCode: 'Failed to copy code.',
  copyToken: 'Failed to copy token.',
  copyExample: 'Failed to copy example.',
  copyId: 'Failed to copy ID.',
  uploadSucceeded: (file: string) => `Uploading ${file} completed successfully!`,
  /** The one notice of an upload that is followed to the end of its analysis: SPEC's words, and that it is Ready. */
  uploadReady: (files: string) => `Uploading ${files} completed successfully! It is analysed and Ready.`,
  uploadAnalysisFailed: (name: string, why: string) => `"${name}" failed analysis: ${why}`,

  // Empty lists and not found
  noApiKeys: 'No API Keys Found',
  noProjects: 'No Projects Found',
  noUploads: 'No Uploads Found',
  noModels: 'No Models Found',
  noRequests: 'No Requests Found',
  requestNotFound: 'Request not found',
  integrationNotFound: 'Integration not found',
  // Beyond SPEC, in the style of its two: the other id routes' not-found pages
  projectNotFound: 'Project not found',
  /** An account (client) the user has no access to, or none of that id: the server's words. */
  clientNotFound: 'Client not found',
  apiKeyNotFound: 'API key not found',

  globalFallback: 'An unexpected error has occurred.',

  // Beyond SPEC (where it is silent): used by the server and clients alike
  rateLimited: 'Too many attempts. Please wait a minute and try again.',
  /** Failed sign-ins of one email address (whether or not it has an account, so the text tells nothing). */
  signinLocked: (minutes: number) =>
    `Too many sign-in attempts for this email address. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
  forbidden: 'You do not have access to this resource.',
  notFound: 'Not found',
  uploadCancelled: 'Upload cancelled.',
  undo: 'Undo',
  serverUnreachable: 'The server cannot be reached. Check the API address and try again.',
  // What happened to a call that got no usable answer (SPEC's texts name a refusal; these say it was not one).
  cannotReach: (origin: string, why: string) => `Cannot reach ${origin} (${why}). Check the API address and your network, then try again.`,
  timedOut: (origin: string, seconds: number) =>
    `No answer from ${origin}: timed out after ${seconds} s. Try again, or allow longer with --timeout or PORTAL_TIMEOUT.`,
  serverError: (status: number, message: string | null) => `Server error ${status}${message ? `: ${message}` : ''}. Try again later.`,
  loadUsage: 'Failed to load usage. Please try again.',
  rerunStarted: 'The request was started again.',
  noEvents: 'No events yet',
  shrinkNoParameters: 'The model upload has no parameters to count, so it cannot be priced: upload a .py model whose layers have sizes.',
  shrinkConfirmBilled: (due: string) => `Create this quote? ${due} will be billed to the account; the request starts once it is paid.`,
  shrinkConfirmFree: 'Create this request? Free credit covers it, so it starts at once and nothing is billed.',
  shrinkPriceUnknown: 'The price cannot be worked out yet: wait until the upload is Ready and billing has loaded.',
  shrinkNeedsYes: 'Creating a quote bills the account: pass --yes to confirm without a terminal.',
} as const;

/**
 * Notification durations of SPEC section 9, in milliseconds; `confirm` is the portal's own (create, rename, remove with
 * Undo): 10 s, long enough to undo, short enough not to linger over the page's buttons.
 */
export const NOTIFY_MS = { default: 20_000, error: 5_000, uploadSuccess: 10_000, confirm: 10_000 } as const;

/** How long a notice of this kind stays (success notices other than an upload's stay the default time). */
export function notifyMs(kind: 'default' | 'error' | 'success' | 'uploadSuccess' = 'default'): number {
  if (kind === 'error') return NOTIFY_MS.error;
  if (kind === 'uploadSuccess') return NOTIFY_MS.uploadSuccess;
  return kind === 'success' ? NOTIFY_MS.confirm : NOTIFY_MS.default;
}

/** The copied label resets after this many milliseconds. */
export const COPIED_RESET_MS = 1_000;

/** Contact page opened by Contact Support and by the upgrade button. */
export const CONTACT_PATH = '/contact.html';
