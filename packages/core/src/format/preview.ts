// What an upload preview shows, as text both doors print: formatted cells, cut texts, a column's summary.
import type { PreviewColumn, UploadPreview } from '../contract/preview';
import { columnChart } from '../insight';

/**
 * The number formats, made on first use: a process's first Intl formatter loads ICU's data (about 10 ms), which a
 * module evaluated at start would cost every command of the CLI that bundles it (an upload push showed it).
 */
let numberFormats: { sig: Intl.NumberFormat; whole: Intl.NumberFormat } | undefined;
const formats = () =>
  (numberFormats ??= { sig: new Intl.NumberFormat('en-US', { maximumSignificantDigits: 6 }), whole: new Intl.NumberFormat('en-US') });
const whole = (n: number) => formats().whole.format(n);

/** Shown for a missing value (NaN, null or an empty text). */
export const MISSING_CELL = '–';

/**
 * A cell as a table shows it: whole numbers grouped, others to 6 significant digits, extremes in e-notation;
 * texts as they are, booleans as true/false.
 */
export function formatCell(v: number | string | boolean | null | undefined): string {
  if (typeof v === 'string') return v === '' ? MISSING_CELL : v;
  if (typeof v === 'boolean') return String(v);
  if (v === null || v === undefined || !Number.isFinite(v)) return MISSING_CELL;
  const a = Math.abs(v);
  if (a !== 0 && (a < 1e-4 || a >= 1e12)) return v.toExponential(2);
  return Number.isInteger(v) ? whole(v) : formats().sig.format(v);
}

/** A text cut to `max` characters with an ellipsis; the whole value goes in a hover or a wider view. */
export function cutText(text: string, max: number): string {
  const chars = [...text.replace(/[\t\n\r]+/g, ' ')];
  return chars.length <= max ? chars.join('') : `${chars.slice(0, Math.max(1, max - 1)).join('')}…`;
}

/** A column's statistics as labelled text, in the order the doors show them. */
export function columnSummary(c: PreviewColumn): Array<[label: string, value: string]> {
  return [
    ['type', c.type],
    ['min', formatCell(c.min)],
    ['max', formatCell(c.max)],
    ['mean', formatCell(c.mean)],
    ['missing', whole(c.missing)],
  ];
}

/** A histogram as one line of eighth blocks scaled from zero (the terminal's column of a column's histogram). */
export const histogramLine = (histogram: readonly number[]): string => columnChart(histogram, 1)[0] ?? '';

/** The preview's headline: what the file holds, in words. */
export function previewSummary(p: UploadPreview): string {
  if (p.kind === 'model' && p.model) {
    return `${whole(p.model.layers.length)} layer${p.model.layers.length === 1 ? '' : 's'}, ${whole(p.model.parameters)} parameters`;
  }
  if (p.kind === 'texts') return `${whole(p.totalRows ?? p.texts.length)} texts`;
  const parts = [];
  if (p.totalRows !== null) parts.push(`${whole(p.totalRows)} rows`);
  if (p.totalCols !== null) parts.push(`${whole(p.totalCols)} columns`);
  return parts.join(', ');
}
