// The upload preview: what a file holds, as a table's first rows and per-column statistics, a text upload's first
// texts, or a model file's layers. Computed once when the file is analysed; the call reads it back.
import * as z from 'zod/mini';
import { Id } from './entities';

/** Rows a preview shows (the dataset viewer's first page). */
export const PREVIEW_ROWS = 100;
/** Columns a preview keeps: wider tables show their first columns and say how many there are. */
export const PREVIEW_COLUMNS = 50;
/** Bars in a column's histogram. */
export const PREVIEW_BINS = 10;
/** Characters of a text a preview keeps (its whole length is still given). */
export const PREVIEW_TEXT_CHARS = 2_000;

export const PreviewColumn = z.object({
  name: z.string(),
  /** 'integer' when every value is whole; 'text' for a text upload's lengths. */
  type: z.enum(['number', 'integer', 'text']),
  min: z.nullable(z.number()),
  max: z.nullable(z.number()),
  mean: z.nullable(z.number()),
  /** Values that are not numbers (NaN, null or empty). */
  missing: z.number(),
  /** Counts over PREVIEW_BINS equal bins from min to max. */
  histogram: z.array(z.number()),
});
export type PreviewColumn = z.infer<typeof PreviewColumn>;

export const PreviewLayer = z.object({ name: z.string(), type: z.string(), parameters: z.number(), count: z.number() });
export type PreviewLayer = z.infer<typeof PreviewLayer>;

export const UploadPreview = z.object({
  /** table: rows and columns; texts: an array of strings; model: layers; none: nothing to show (`note` says why). */
  kind: z.enum(['table', 'texts', 'model', 'none']),
  /** The first rows, each cell a number or null (missing). */
  rows: z.array(z.array(z.nullable(z.number()))),
  columns: z.array(PreviewColumn),
  texts: z.array(z.object({ text: z.string(), length: z.number() })),
  model: z.nullable(z.object({ parameters: z.number(), layers: z.array(PreviewLayer) })),
  /** The whole file's rows and columns, where it has them. */
  totalRows: z.nullable(z.number()),
  totalCols: z.nullable(z.number()),
  /** A sentence on what is left out or why there is no preview. */
  note: z.nullable(z.string()),
});
export type UploadPreview = z.infer<typeof UploadPreview>;

/** `upload`: a file's id, or an upload's id for its first file. */
export const UploadPreviewQuery = z.object({ upload: Id });
export const UploadPreviewResponse = z.object({ preview: UploadPreview });

/** Sentences of the preview call. */
export const PREVIEW_NOTES = {
  analysing: 'This file is still being analysed; its preview appears when it is Finished.',
  failed: 'This file could not be read, so it has no preview.',
  older: 'This file was analysed before previews existed; upload it again to see one.',
  binary: 'This file holds arrays or a pickled object: its sizes are shown above; a row-by-row preview covers .json and .txt tables.',
} as const;
