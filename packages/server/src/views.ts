// Database rows to the wire's entities (core's contract shapes).
import {
  maskToken,
  type Project,
  type Client,
  type ClientApiKey,
  type IntegrationKey,
  type Model,
  type Quote,
  type Upload,
  type Run,
  type UploadItem,
  type Box,
  type UploadRef,
} from '@portal/core';
import { RunMetrics } from '@portal/core/contract/table';
import type { Selectable } from 'kysely';
import { WHEEL_FILE } from './processing/index';
import type {
  ApiKeyTable,
  BoxTable,
  BucketTable,
  ClientTable,
  IntegrationTable,
  ModelTable,
  QuoteTable,
  RendTable,
  RunTable,
  UploadTable,
} from './db/schema';

// Views read only what the wire shows: the insertion order column (seq) is not needed to build one.
type Row<T> = Omit<Selectable<T>, 'seq'>;
const active = (n: number): 0 | 1 => (n ? 1 : 0);

export const clientView = (c: Pick<Row<ClientTable>, 'stamp' | 'name' | 'plan' | 'choice' | 'active'>): Client => ({
  stamp: c.stamp,
  name: c.name,
  plan: c.plan as Client['plan'],
  choice: c.choice as Client['choice'],
  active: active(c.active),
});

/**
 * The installer's path below /api/pack/: the key's clue maps the download back to the key, its install secret
 * (shown only to members) makes the download count, and pip names the file after the last segment, a wheel name.
 */
export const PACK_WHEEL = WHEEL_FILE;
export const packFileName = (clue: string, secret: string) => `${encodeURIComponent(clue)}/${encodeURIComponent(secret)}/${PACK_WHEEL}`;

export const apiKeyView = (k: Row<ApiKeyTable>, token: string): ClientApiKey => ({
  clue: k.clue,
  name: k.name,
  token,
  installs: k.installs,
  installedAt: k.installed_at,
  active: active(k.active),
  createdAt: k.created_at,
  pack: { linux64: packFileName(k.clue, k.install_secret) },
});

export const integrationView = (k: Row<IntegrationTable>, token: string): IntegrationKey => ({
  clue: k.clue,
  name: k.name,
  service: k.service as IntegrationKey['service'],
  token: maskToken(token),
  runs: k.runs,
  runAt: k.run_at,
  active: active(k.active),
  createdAt: k.created_at,
});

export const projectView = (
  b: Pick<Row<BucketTable>, 'stamp' | 'name' | 'created_at'>,
  counts: { runs: number; rends: number },
): Project => ({
  stamp: b.stamp,
  name: b.name,
  runs: counts.runs,
  rends: counts.rends,
  createdAt: b.created_at,
});

/**
 * The columns each list view reads, which the hot lists' statements select (and nothing more). The rows' order
 * columns (created_at, seq) are read by every list.
 */
export const UPLOAD_SHOWN = [
  'stamp',
  'name',
  'state',
  'checksum',
  'file_name',
  'size',
  'proc',
  'cols',
  'rows',
  'inputs',
  'meta_error',
  'error',
  'created_at',
] as const;
export const BOX_SHOWN = ['stamp', 'name', 'run', 'size', 'created_at'] as const;
export const REND_SHOWN = ['stamp', 'name', 'flight', 'created_at'] as const;
export const RUN_SHOWN = [
  'stamp',
  'name',
  'desc',
  'function',
  'state',
  'message',
  'created_at',
  'rend',
  'fit',
  'model',
  'quote',
  'started_at',
  'finished_at',
  'metrics',
  'note',
] as const;
export const MODEL_SHOWN = ['stamp', 'name', 'desc', 'state', 'message', 'created_at', 'rend'] as const;
type Shown<T, K extends readonly (keyof Row<T>)[]> = Pick<Row<T>, K[number]>;

export const fileView = (u: Shown<UploadTable, typeof UPLOAD_SHOWN>): UploadItem => ({
  stamp: u.stamp,
  name: u.name,
  state: u.state as UploadItem['state'],
  file: { checksum: u.checksum, name: u.file_name, size: u.size },
  meta: {
    proc: (u.proc === 1 || u.proc === 2 ? u.proc : 0) as 0 | 1 | 2,
    cols: u.cols,
    rows: u.rows,
    inputs: u.inputs,
    error: u.meta_error,
  },
  error: u.error,
  createdAt: u.created_at,
});

export const resultView = (b: Shown<BoxTable, typeof BOX_SHOWN>): Box => ({
  stamp: b.stamp,
  name: b.name,
  run: b.run,
  size: b.size,
  createdAt: b.created_at,
});

export const uploadView = (
  r: Shown<RendTable, typeof REND_SHOWN>,
  items: Shown<UploadTable, typeof UPLOAD_SHOWN>[],
  boxes: Shown<BoxTable, typeof BOX_SHOWN>[],
  runs: number,
): Upload => ({
  stamp: r.stamp,
  name: r.name,
  flight: r.flight as Upload['flight'],
  createdAt: r.created_at,
  runs,
  upload: { list: items.map(fileView) },
  box: { list: boxes.map(resultView) },
});

export const runView = (r: Shown<RunTable, typeof RUN_SHOWN>, upload: UploadRef | null): Run => ({
  stamp: r.stamp,
  name: r.name,
  desc: r.desc,
  function: r.function as Run['function'],
  state: r.state,
  message: r.message,
  createdAt: r.created_at,
  rend: upload,
  fit: r.fit,
  model: r.model,
  quote: r.quote,
  startedAt: r.started_at === null ? null : Number(r.started_at),
  finishedAt: r.finished_at === null ? null : Number(r.finished_at),
  metrics: metricsOf(r.metrics),
  note: r.note,
});

/** A run's stored metrics, or null when it has none (or what is stored is not a score). */
function metricsOf(text: string | null): RunMetrics | null {
  if (!text) return null;
  try {
    const m = RunMetrics.safeParse(JSON.parse(text));
    return m.success ? m.data : null;
  } catch {
    return null;
  }
}

export const modelView = (m: Shown<ModelTable, typeof MODEL_SHOWN>, upload: UploadRef | null): Model => ({
  stamp: m.stamp,
  name: m.name,
  desc: m.desc,
  state: m.state,
  message: m.message,
  createdAt: m.created_at,
  rend: upload,
});

export const quoteView = (q: Row<QuoteTable>, upload: UploadRef | null): Quote => ({
  stamp: q.stamp,
  name: q.name,
  desc: q.desc,
  function: q.function as Quote['function'],
  state: q.state,
  message: q.message,
  cent: q.cent,
  invoiceNum: q.invoice_num,
  createdAt: q.created_at,
  rend: upload,
});
