// The upload preview: what a file holds, as a table's first rows and per-column statistics, a text upload's first
// texts, or a model file's layers. Computed once when the file is analysed; the call reads it back.
import * as z from 'zod/mini';
import { Id } from './entities';

/**
 * A column's kind. number/integer: numeric ('integer' when every value is whole); boolean: true/false values;
 * category: text with few distinct values (class labels); text: free text (and a text upload's lengths).
 */
export const ColumnType = z.enum(['number', 'integer', 'boolean', 'category', 'text']);
export type ColumnType = z.infer<typeof ColumnType>;
/** A table cell as the preview shows it: a number, a text, a boolean, or null when missing. */
export const PreviewCell = z.nullable(z.union([z.number(), z.string(), z.boolean()]));
export type PreviewCell = z.infer<typeof PreviewCell>;

export const PreviewColumn = z.object({
  name: z.string(),
  type: ColumnType,
  min: z.nullable(z.number()),
  max: z.nullable(z.number()),
  mean: z.nullable(z.number()),
  /** Values that are missing: null, NaN or an empty text (for a numeric column also any text that is not a number). */
  missing: z.number(),
  /** Counts over PREVIEW_BINS equal bins from min to max (numeric columns; empty otherwise). */
  histogram: z.array(z.number()),
  /** Distinct values that are present (all rows of the file). */
  distinct: z.optional(z.number()),
  /** A category or boolean column's most frequent values (up to PREVIEW_VALUES) with their counts. */
  values: z.optional(z.array(z.object({ value: z.string(), count: z.number() }))),
});
export type PreviewColumn = z.infer<typeof PreviewColumn>;

export const PreviewLayer = z.object({ name: z.string(), type: z.string(), parameters: z.number(), count: z.number() });
export type PreviewLayer = z.infer<typeof PreviewLayer>;

export const UploadPreview = z.object({
  /** table: rows and columns; texts: an array of strings; model: layers; none: nothing to show (`note` says why). */
  kind: z.enum(['table', 'texts', 'model', 'none']),
  /** The first rows, each cell a number, a text, a boolean, or null (missing). */
  rows: z.array(z.array(PreviewCell)),
  columns: z.array(PreviewColumn),
  texts: z.array(z.object({ text: z.string(), length: z.number() })),
  model: z.nullable(z.object({ parameters: z.number(), layers: z.array(PreviewLayer) })),
  /** The whole file's rows and columns, where it has them. */
  totalRows: z.nullable(z.number()),
  totalCols: z.nullable(z.number()),
  /** How the JSON table was laid out: columns-rows, records, split, columns (a dict of column lists), matrix. */
  shape: z.optional(z.nullable(z.enum(['columns-rows', 'records', 'split', 'columns', 'matrix']))),
  /** A sentence on what is left out or why there is no preview. */
  note: z.nullable(z.string()),
});
export type UploadPreview = z.infer<typeof UploadPreview>;

/** `upload`: a file's id, or an upload's id for its first file. */
export const UploadPreviewQuery = z.object({ upload: Id });
export const UploadPreviewResponse = z.object({ preview: UploadPreview });
