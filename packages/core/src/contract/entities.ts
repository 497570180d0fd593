// Zod schemas of every entity of SPEC section 3, as they travel on the wire (DESIGN.md's contract decisions).
// zod/mini, imported as a namespace: bundlers keep only the functions used (`import { z }` keeps all of them).
import * as z from 'zod/mini';
import { CHOICES, PLANS, TASKS, INTEGRATION_SERVICES } from '../limits';

/** Times travel as epoch seconds. */
export const Epoch = z.number().check(z.int(), z.nonnegative());
/** Counts and sizes: nonnegative integers (schemas are immutable, so one instance serves every field). */
const Count = z.number().check(z.int(), z.nonnegative());
const Int = z.number().check(z.int());
/** Longest column name a fit may name, and most columns one list may name. */
export const COLUMN_NAME_MAX = 200;
export const COLUMNS_NAMED_MAX = 10_000;
/** Opaque random id (`stamp` for most entities, `clue` for keys). */
export const Id = z.string().check(z.minLength(1), z.maxLength(64));
export const Active = z.union([z.literal(0), z.literal(1)]);

export const Plan = z.enum(PLANS);
export const Choice = z.enum(CHOICES);
export const Task = z.enum(TASKS);
export const RunFunction = z.enum(['fit', 'generate', 'shrink']);
export const Flight = z.enum(['Failed', 'Pending', 'Processing', 'Ready']);
export const UploadState = z.enum(['Failed', 'Finished', 'Pending', 'Preparing']);
/** Run and model states are displayed as raw text (SPEC); DESIGN.md fixes these values. */
export const RunState = z.string();
export const QuoteState = z.string();

export const Client = z.object({
  stamp: Id,
  name: z.string(),
  plan: Plan,
  choice: Choice,
  active: Active,
});

export const PermissionEntry = z.object({
  client: Client,
  createdAt: Epoch,
});

export const ClientApiKey = z.object({
  clue: Id,
  name: z.string(),
  token: z.string(),
  installs: Count,
  installedAt: z.nullable(Epoch),
  active: Active,
  createdAt: Epoch,
  pack: z.object({ linux64: z.string() }),
});

export const IntegrationKey = z.object({
  clue: Id,
  name: z.string(),
  service: z.enum(INTEGRATION_SERVICES),
  /** Masked in lists: the service's token is kept encrypted and never sent back whole. */
  token: z.string(),
  runs: Count,
  runAt: z.nullable(Epoch),
  active: Active,
  createdAt: Epoch,
});

export const Bucket = z.object({
  stamp: Id,
  name: z.string(),
  /** Count of requests (runs) in the project. */
  runs: Count,
  /** Count of uploads (rends) in the project. */
  rends: Count,
  createdAt: Epoch,
});

export const UploadFile = z.object({
  checksum: z.string(),
  name: z.string(),
  size: Count,
});

export const UploadMeta = z.object({
  /** 0 not yet processed, 1 processed, 2 error. */
  proc: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  cols: z.nullable(Count),
  rows: z.nullable(Count),
  inputs: z.nullable(Count),
  error: z.nullable(z.string()),
});

export const UploadItem = z.object({
  stamp: Id,
  name: z.string(),
  state: UploadState,
  file: UploadFile,
  meta: UploadMeta,
  error: z.nullable(z.string()),
  createdAt: Epoch,
});

/** An output stored from an upload (e.g. a generate run's embeddings). */
export const Box = z.object({
  stamp: Id,
  name: z.string(),
  run: z.nullable(Id),
  size: Count,
  createdAt: Epoch,
});

export const Rend = z.object({
  stamp: Id,
  name: z.string(),
  flight: Flight,
  createdAt: Epoch,
  /** Count of requests made from this upload. */
  runs: Count,
  upload: z.object({ list: z.array(UploadItem) }),
  box: z.object({ list: z.array(Box) }),
});

/** How runs, quotes and models name their upload. */
export const RendRef = z.object({ stamp: Id, name: z.string() });

/** A fit's held-out score: accuracy (0..1) for classification, R² for regression, and the rows it was measured on. */
export const RunMetrics = z.object({
  name: z.enum(['accuracy', 'r2']),
  value: z.number(),
  rows: Count,
});

export const Run = z.object({
  stamp: Id,
  name: z.string(),
  desc: z.string(),
  function: RunFunction,
  state: RunState,
  message: z.string(),
  createdAt: Epoch,
  rend: z.nullable(RendRef),
  /** For a generate run: the fit run whose model it applies. */
  fit: z.optional(z.nullable(Id)),
  /** For a generate run: the model it applies (the fit's, one reused, or a general model). */
  model: z.optional(z.nullable(z.string())),
  /** For a shrink run: its quote. */
  quote: z.optional(z.nullable(Id)),
  /** When processing started and when the run settled (Finished or Failed); null until then. */
  startedAt: z.optional(z.nullable(Epoch)),
  finishedAt: z.optional(z.nullable(Epoch)),
  /** For a finished fit: its score on held-out rows (rows that neither trained the weights nor decided when to stop). */
  metrics: z.optional(z.nullable(RunMetrics)),
  /** For a fit: a plain sentence worth a look, e.g. "stopped early at epoch 4: validation loss rose". */
  note: z.optional(z.nullable(z.string())),
});

export const RunEventKind = z.enum(['state', 'progress', 'log']);
/**
 * One entry of a run's event log. `state`: data `{ state }`, on every state change; `progress`: a fit's
 * `{ epoch, epochs, loss, valLoss, points }` (points: every epoch since the previous progress event) or a
 * generate's `{ rows, total }`; `log`: a sentence for the user (early stopping, the held-out score).
 */
export const RunEvent = z.object({
  seq: Count,
  at: Epoch,
  kind: RunEventKind,
  message: z.string(),
  data: z.nullable(z.record(z.string(), z.unknown())),
});

/** One UTC day of a client's usage: requests made, input parameters processed and the amount quoted, in cents. */
export const UsageDay = z.object({
  date: z.string(),
  fits: Count,
  generates: Count,
  shrinks: Count,
  parameters: Count,
  cents: Count,
});
export const UsageTotals = z.object({ fits: Count, generates: Count, shrinks: Count, parameters: Count, cents: Count });

export const Quote = z.object({
  stamp: Id,
  name: z.string(),
  desc: z.string(),
  function: RunFunction,
  state: QuoteState,
  message: z.string(),
  /** Amount in cents. */
  cent: Count,
  invoiceNum: z.string(),
  createdAt: Epoch,
  rend: z.nullable(RendRef),
});

export const Model = z.object({
  stamp: Id,
  name: z.string(),
  desc: z.string(),
  state: RunState,
  message: z.string(),
  createdAt: Epoch,
  rend: z.nullable(RendRef),
});

export const FitParam = z.object({
  explainability: z.boolean(),
  input_column_size: Int,
  output_column_size: Int,
  task_target_size: Int,
  task: Task,
  /** The upload's columns the model reads, by name (their count is input_column_size). */
  input_columns: z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(COLUMN_NAME_MAX))).check(z.maxLength(COLUMNS_NAMED_MAX))),
  /** The upload's columns the model learns, by name (their count is task_target_size). */
  target_columns: z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(COLUMN_NAME_MAX))).check(z.maxLength(COLUMNS_NAMED_MAX))),
});
export const ShrinkParam = z.strictObject({});

export const PileVariety = z.enum(['FitModel', 'ShrinkService']);
export const Pile = z.discriminatedUnion('variety', [
  z.object({ stamp: Id, variety: z.literal('FitModel'), param: FitParam, createdAt: Epoch }),
  z.object({ stamp: Id, variety: z.literal('ShrinkService'), param: ShrinkParam, createdAt: Epoch }),
]);

export const Billing = z.object({
  /** Free credit left, in millions of input parameters, as a decimal string. */
  creditBalance: z.string(),
  /** Free credit consumed, in millions of input parameters, as a decimal string. */
  creditConsumed: z.string(),
  /** Outstanding account balance in cents. */
  accountCentBalance: Int,
  portalUrl: z.string(),
});

export const User = z.object({
  stamp: Id,
  email: z.string(),
  username: z.string(),
});

export type Client = z.infer<typeof Client>;
export type PermissionEntry = z.infer<typeof PermissionEntry>;
export type ClientApiKey = z.infer<typeof ClientApiKey>;
export type IntegrationKey = z.infer<typeof IntegrationKey>;
export type Bucket = z.infer<typeof Bucket>;
export type UploadFile = z.infer<typeof UploadFile>;
export type UploadMeta = z.infer<typeof UploadMeta>;
export type UploadItem = z.infer<typeof UploadItem>;
export type Box = z.infer<typeof Box>;
export type Rend = z.infer<typeof Rend>;
export type RendRef = z.infer<typeof RendRef>;
/** The product's names for the wire's entities (docs/GLOSSARY.md): code outside the contract speaks of these. */
export type Project = Bucket;
export type Upload = Rend;
export type UploadRef = RendRef;
export type Run = z.infer<typeof Run>;
export type RunMetrics = z.infer<typeof RunMetrics>;
export type Quote = z.infer<typeof Quote>;
export type Model = z.infer<typeof Model>;
export type FitParam = z.infer<typeof FitParam>;
export type Pile = z.infer<typeof Pile>;
export type Billing = z.infer<typeof Billing>;
export type RunEvent = z.infer<typeof RunEvent>;
export type RunEventKind = z.infer<typeof RunEventKind>;
export type UsageDay = z.infer<typeof UsageDay>;
export type UsageTotals = z.infer<typeof UsageTotals>;
export type User = z.infer<typeof User>;
export type Plan = z.infer<typeof Plan>;
export type Choice = z.infer<typeof Choice>;
export type RunFunction = z.infer<typeof RunFunction>;
export type Flight = z.infer<typeof Flight>;
export type UploadState = z.infer<typeof UploadState>;
