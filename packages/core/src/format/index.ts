// Formatting of SPEC section 9: sizes, times, prices, credits, balances, result file names.
import { CENTS_PER_MILLION_INPUTS, MILLION } from '../limits';

const SIZE_UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'] as const;

/** File sizes in units from Bytes to YB with base 1024, e.g. 1536 -> "1.5 KB". */
export function formatSize(bytes: number, decimals = 2): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  // Under one byte (never a real size) stays in Bytes rather than indexing below the table.
  const i = Math.max(0, Math.min(SIZE_UNITS.length - 1, Math.floor(Math.log(bytes) / Math.log(1024))));
  const value = bytes / 1024 ** i;
  return `${parseFloat(value.toFixed(decimals))} ${SIZE_UNITS[i]}`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Epoch seconds to a local date-time, "YYYY-MM-DD HH:MM:SS"; an empty value gives "-". */
export function formatTime(epochSeconds: number | null | undefined): string {
  if (epochSeconds === null || epochSeconds === undefined || !Number.isFinite(epochSeconds) || epochSeconds <= 0) return '-';
  const d = new Date(epochSeconds * 1000);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** Cents for a number of input parameters: $0.22 per started million (rounded up). */
export function priceCents(inputs: number): number {
  if (!Number.isFinite(inputs) || inputs <= 0) return 0;
  return Math.ceil(inputs / MILLION) * CENTS_PER_MILLION_INPUTS;
}

/** Input parameters summed over the uploads' meta.inputs (what a request on them is priced by). */
export function uploadInputs(items: ReadonlyArray<{ meta: { inputs: number | null } }>): number {
  return items.reduce((sum, it) => sum + (it.meta.inputs ?? 0), 0);
}

/** The estimated price over the uploads' meta.inputs, in cents. */
export function estimatePriceCents(items: ReadonlyArray<{ meta: { inputs: number | null } }>): number {
  return priceCents(uploadInputs(items));
}

/** Cents to dollars, "$12.34". */
export function formatDollars(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  return `${sign}$${(Math.abs(cents) / 100).toFixed(2)}`;
}

/** A billing credit string (millions of input parameters) to input parameters. */
export function creditToInputs(credit: string | number | null | undefined): number {
  const n = typeof credit === 'number' ? credit : parseFloat(credit ?? '');
  return Number.isFinite(n) ? Math.round(n * MILLION) : 0;
}

/** Free credits for display: consumed and total in input parameters. */
export function freeCredits(billing: { creditBalance: string; creditConsumed: string }): { consumed: number; total: number; left: number } {
  const left = creditToInputs(billing.creditBalance);
  const consumed = creditToInputs(billing.creditConsumed);
  return { consumed, total: left + consumed, left };
}

/** A whole number with thousands separators, "1,000,000". */
export function formatCount(n: number): string {
  return Math.round(n)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** The result download's file name: ensemble_result_{date}_{time}.json, date YYYY-MM-DD, time HH-MM-SS. */
export function resultFileName(now: Date = new Date()): string {
  const date = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  const time = `${pad(now.getHours())}-${pad(now.getMinutes())}-${pad(now.getSeconds())}`;
  return `ensemble_result_${date}_${time}.json`;
}

/** Masks a secret for lists: the first 3 and last 4 characters. */
export function maskToken(token: string): string {
  if (token.length <= 8) return '•'.repeat(token.length);
  return `${token.slice(0, 3)}${'•'.repeat(8)}${token.slice(-4)}`;
}

/** The parts of an upload item the error rule reads. */
interface ItemLike {
  state: string;
  error?: string | null;
  meta: { proc: number | null; error?: string | null };
}

/**
 * The error an upload item shows (SPEC section 8): an item whose analysis failed (meta.proc 2) shows the analysis
 * error first; a Failed item shows its own error first; any other item shows none.
 */
export function uploadItemError(item: ItemLike): string | null {
  if (item.meta.proc === 2) return item.meta.error ?? item.error ?? null;
  if (item.state === 'Failed') return item.error ?? item.meta.error ?? null;
  return null;
}

/** The error an upload group shows: its first item's that has one. */
export function uploadError(upload: { upload: { list: readonly ItemLike[] } }): string | null {
  for (const item of upload.upload.list) {
    const error = uploadItemError(item);
    if (error) return error;
  }
  return null;
}
export * from './printable';
