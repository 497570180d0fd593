// Business constants and plan limits of SPEC section 9: one table read by every door and by the server.

export const PLANS = ['Individual', 'Enterprise'] as const;
export type PlanName = (typeof PLANS)[number];

export const CHOICES = ['Cloud', 'Premise', 'CloudPremise'] as const;
export type ChoiceName = (typeof CHOICES)[number];

const MB = 1024 * 1024;

export interface PlanLimits {
  /** Label shown next to the plan name (Individual is in beta). */
  label: string;
  maxFileSize: number;
  inputColumns: number;
  outputColumns: number;
  rows: number;
  taskTargetSize: number;
  explainability: boolean;
  compute: string;
  /** What the Compare Plans table prints for each row. */
  table: {
    maxFileSize: string;
    inputColumns: string;
    outputColumns: string;
    rows: string;
    taskTargetSize: string;
    explainability: string;
    compute: string;
  };
}

export const PLAN_LIMITS: Record<PlanName, PlanLimits> = {
  Individual: {
    label: 'In Beta',
    maxFileSize: 1 * MB,
    inputColumns: 3,
    outputColumns: 5,
    rows: 5_000,
    taskTargetSize: 1,
    explainability: false,
    compute: 'CPU only',
    table: {
      maxFileSize: '1 MB',
      inputColumns: '3',
      outputColumns: '5',
      rows: '5,000',
      taskTargetSize: '1',
      explainability: 'Not allowed',
      compute: 'CPU only',
    },
  },
  Enterprise: {
    label: 'Enterprise',
    maxFileSize: 10 * MB,
    inputColumns: 500,
    outputColumns: 500,
    rows: 1_000_000,
    taskTargetSize: 1,
    explainability: true,
    compute: 'GPU',
    table: {
      maxFileSize: 'Unlimited',
      inputColumns: 'Unlimited',
      outputColumns: '500',
      rows: 'Unlimited',
      taskTargetSize: '1',
      explainability: 'Allowed',
      compute: 'GPU',
    },
  },
};

/** Row labels of the Compare Plans table, in order. */
export const PLAN_TABLE_ROWS: ReadonlyArray<[keyof PlanLimits['table'], string]> = [
  ['maxFileSize', 'Max file size'],
  ['inputColumns', 'Input columns'],
  ['outputColumns', 'Output columns'],
  ['rows', 'Rows'],
  ['taskTargetSize', 'Task target size'],
  ['explainability', 'Explainability'],
  ['compute', 'Compute'],
];

export const TITLE_MAX = 60;
export const DESCRIPTION_MAX = 300;
/** The integration token's rule and its input's length: SPEC gives the input 60; DESIGN.md raises it to 10,000. */
export const INTEGRATION_TOKEN_MAX = 10_000;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 64;
export const USERNAME_MIN = 5;
export const USERNAME_MAX = 30;
export const COMPANY_MIN = 5;
export const COMPANY_MAX = 50;

/** Token refresh: when under 30 minutes remain, at most once per 60 seconds. */
export const REFRESH_WINDOW_S = 30 * 60;
export const REFRESH_MIN_INTERVAL_S = 60;

/** Price: $0.22 per started million input parameters. */
export const CENTS_PER_MILLION_INPUTS = 22;
export const MILLION = 1_000_000;

/** Shrink model upload: a single .py file of at most 1 billion parameters. */
export const SHRINK_MAX_PARAMETERS = 1_000_000_000;

/** Reload poller of the shrink file picker (SPEC section 4), in milliseconds. */
export const POLL_START_MS = 20_000;
export const POLL_STEP_MS = 20_000;
export const POLL_MAX_MS = 60_000;

export const TASKS = ['regression', 'classification'] as const;
export type TaskName = (typeof TASKS)[number];
export const DEFAULT_TASK: TaskName = 'regression';

/** The one third-party language-model service for integration keys. */
export const INTEGRATION_SERVICES = ['OpenAI'] as const;
export const DEFAULT_INTEGRATION_SERVICE = INTEGRATION_SERVICES[0];

/** Where a drop zone is used, and what it accepts there (SPEC section 5). */
export const UPLOAD_CONTEXTS = {
  uploads: { extensions: ['.json', '.npy', '.npz', '.pkl', '.pickle', '.sav', '.py', '.pt', '.txt'], maxFiles: 10 },
  fit: { extensions: ['.json'], maxFiles: 1 },
  shrink: { extensions: ['.py'], maxFiles: 1 },
} as const;
export type UploadContext = keyof typeof UPLOAD_CONTEXTS;
export const ALL_UPLOAD_EXTENSIONS: readonly string[] = UPLOAD_CONTEXTS.uploads.extensions;

/** The lengths above as help texts say them ("1-60"), so a help line cannot drift from the rule it describes. */
export const LENGTHS = {
  title: `1-${TITLE_MAX}`,
  description: `up to ${DESCRIPTION_MAX}`,
  username: `${USERNAME_MIN}-${USERNAME_MAX}`,
  company: `${COMPANY_MIN}-${COMPANY_MAX}`,
  password: `${PASSWORD_MIN}-${PASSWORD_MAX}`,
} as const;
