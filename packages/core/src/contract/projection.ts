// The embedding map: a generate request's vectors projected to 2D (PCA in the worker, stored beside the result).
import * as z from 'zod/mini';
import { Id } from './entities';
import { ColumnType } from './preview';

/** One column's colour key per point: a number (the value, or the class's index into `classes`), null when missing. */
export const ProjectionColour = z.object({
  name: z.string(),
  type: ColumnType,
  key: z.array(z.nullable(z.number())),
  /** For a category or boolean column: the names of its classes, in key order. */
  classes: z.nullable(z.array(z.string())),
});
export type ProjectionColour = z.infer<typeof ProjectionColour>;

export const Projection = z.object({
  /** x and y per point, in row order (of the sample when sampled). */
  x: z.array(z.number()),
  y: z.array(z.number()),
  /** The colour key per point: the target's value (a class's index into `classes`; -1 when missing), or the cluster's number. */
  key: z.array(z.number()),
  /** The upload row (0-based) of each point. */
  row: z.array(z.number()),
  /** The first PROJECTION_INPUTS values of each point's row, for the hover (a text's code; null when missing). */
  inputs: z.array(z.array(z.nullable(z.number()))),
  /** 'target' when the data has a target column, else 'cluster' (k-means on the map). */
  keyKind: z.enum(['target', 'cluster']),
  /** Share of the embeddings' variance each axis explains (0..1). */
  variance: z.tuple([z.number(), z.number()]),
  /** Rows in the result; when more than the points, the map is a sample. */
  total: z.number(),
  /** The target column's name, when the fit named it. */
  keyName: z.optional(z.nullable(z.string())),
  /** When the key is a class: the class names in key order (e.g. the text labels of the target). */
  classes: z.optional(z.nullable(z.array(z.string()))),
  /** Other ways to colour the map: one entry per column of the upload (up to PROJECTION_COLOUR_COLUMNS). */
  colours: z.optional(z.array(ProjectionColour)),
});
export type Projection = z.infer<typeof Projection>;

export const ProjectionQuery = z.object({ run: Id });
export const ProjectionResponse = z.object({ projection: z.nullable(Projection), note: z.nullable(z.string()) });
