// Request creation flows of SPEC section 4: fit (pile → fit run → generate run) and shrink (pile → quote).
import type { ApiClient, CallOptions } from '../client';
import type { FitParam } from '../contract';
import { DEFAULT_TASK, TITLE_MAX } from '../limits';

export interface FitRequestArgs {
  project: string;
  /** The Ready upload the model is trained on and whose data is transformed. */
  upload: string;
  name: string;
  param: Omit<FitParam, 'task'> & { task?: FitParam['task'] };
}

/**
 * What a fit request's two runs are called in lists: the fit (and so its model) by the name given, the generate that
 * applies it as that name's embeddings, within a title's length.
 */
export function fitRunNames(name: string): { fit: string; generate: string } {
  const base = name.trim();
  return { fit: base, generate: `${base.slice(0, TITLE_MAX - ' (embeddings)'.length).trimEnd()} (embeddings)` };
}

/**
 * Creates a fit request (SPEC: pile → fit run → generate run), its runs named apart (fitRunNames); resolves to both
 * stamps. The fit is the request to open: it says how good the model is and links to its embeddings.
 */
export async function createFitRequest(
  api: ApiClient,
  args: FitRequestArgs,
  opts: CallOptions = {},
): Promise<{ fit: string; generate: string }> {
  const names = fitRunNames(args.name);
  const { pile } = await api.calls.pileCreate(
    { bucket: args.project, variety: 'FitModel', param: { ...args.param, task: args.param.task ?? DEFAULT_TASK } },
    opts,
  );
  const fit = await api.calls.runCreate(
    { bucket: args.project, function: 'fit', rend: args.upload, pile: pile.stamp, name: names.fit },
    opts,
  );
  const generate = await api.calls.runCreate(
    { bucket: args.project, function: 'generate', rend: args.upload, fit: fit.run.stamp, name: names.generate },
    opts,
  );
  return { fit: fit.run.stamp, generate: generate.run.stamp };
}

export interface ReuseRequestArgs {
  project: string;
  upload: string;
  /** A Finished model of the project's own, or a general model. */
  model: string;
  name: string;
  /** The vectors' width (the OpenAI text embeddings model only). */
  dimensions?: number;
}

/** Creates a request that reuses a trained model: only the generate run; resolves to its stamp (the details to open). */
export async function createReuseRequest(api: ApiClient, args: ReuseRequestArgs, opts: CallOptions = {}): Promise<string> {
  const { run } = await api.calls.runCreate(
    {
      bucket: args.project,
      function: 'generate',
      rend: args.upload,
      fit: args.model,
      name: args.name.trim(),
      ...(args.dimensions !== undefined ? { dimensions: args.dimensions } : {}),
    },
    opts,
  );
  return run.stamp;
}

/**
 * The models a request can reuse: the project's own Finished models, then the general models (they apply to any
 * upload with a Finished .json, without training).
 */
export const reusableModels = <M extends { state: string }>(own: readonly M[], general: readonly M[] = []): M[] =>
  [...own, ...general].filter((m) => m.state === 'Finished');

export interface ShrinkRequestArgs {
  project: string;
  upload: string;
  name: string;
  desc?: string;
}

/** Creates a shrink request; resolves to its quote's stamp. */
export async function createShrinkRequest(api: ApiClient, args: ShrinkRequestArgs, opts: CallOptions = {}): Promise<string> {
  const { pile } = await api.calls.pileCreate({ bucket: args.project, variety: 'ShrinkService', param: {} }, opts);
  const { quote } = await api.calls.shrinkCreate(
    { bucket: args.project, function: 'shrink', rend: args.upload, pile: pile.stamp, name: args.name.trim(), desc: args.desc ?? '' },
    opts,
  );
  return quote.stamp;
}
