// The embedding map: a generate request's vectors projected to 2D (PCA in the worker, stored beside the result).
import * as z from 'zod/mini';
import { Id } from './entities';

/** Most points a map holds; beyond this the worker keeps an even sample and the map says so. */
export const PROJECTION_MAX_POINTS = 100_000;
/** Input values kept per point for the hover (the first columns). */
export const PROJECTION_INPUTS = 6;

export const Projection = z.object({
  /** x and y per point, in row order (of the sample when sampled). */
  x: z.array(z.number()),
  y: z.array(z.number()),
  /** The colour key per point: the target's value, or the cluster's number. */
  key: z.array(z.number()),
  /** The upload row (0-based) of each point. */
  row: z.array(z.number()),
  /** The first PROJECTION_INPUTS inputs of each point's row, for the hover. */
  inputs: z.array(z.array(z.number())),
  /** 'target' when the data has a target column, else 'cluster' (k-means on the map). */
  keyKind: z.enum(['target', 'cluster']),
  /** Share of the embeddings' variance each axis explains (0..1). */
  variance: z.tuple([z.number(), z.number()]),
  /** Rows in the result; when more than the points, the map is a sample. */
  total: z.number(),
});
export type Projection = z.infer<typeof Projection>;

export const ProjectionQuery = z.object({ run: Id });
export const ProjectionResponse = z.object({ projection: z.nullable(Projection), note: z.nullable(z.string()) });

export const PROJECTION_NOTES = {
  waiting: 'The map appears when the request is Finished.',
  none: 'This request has no map: maps are drawn for generate requests finished after maps existed.',
} as const;
