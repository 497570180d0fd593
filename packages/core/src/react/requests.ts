// Hooks of the two request forms: fit (with plan limits) and shrink (a picker read on a growing interval, price, and a confirm step before billing).
import { useCallback, useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { ApiError } from '../client';
import type { Billing, Model, Plan, Upload } from '../contract';
import { createFitRequest, createReuseRequest, createShrinkRequest, reusableModels } from '../flows';
import { estimatePriceCents } from '../format';
import { formatShrinkPrice, shrinkConfirmQuestion, shrinkPriceOf, type ShrinkPrice } from '../billing';
import { toApiError } from '../loader';
import { MESSAGES } from '../messages';
import { POLL_MAX_MS, POLL_START_MS, POLL_STEP_MS } from '../limits';
import { sameAnswer, VOLATILE_FIELDS } from '../poller';
import { callKey, viewKey } from '../query';
import {
  checkDescription,
  checkFitRequest,
  checkTitle,
  firstError,
  fitSizesOf,
  fitUploadProblem,
  shrinkChoice,
  type FitRequestInput,
} from '../rules';
import { useApi, useNotify } from './context';
import { useClient } from './lists';
import { useLoad } from './useLoad';
import { checkDimensions, isTextEmbeddingModel, modelNeedsKey, TEXT_EMBEDDING_MESSAGES } from '../textEmbeddings';
import { useFitColumns, type FitColumnsState } from './fitColumns';

const ready = (list: readonly Upload[] | undefined) => (list ?? []).filter((r) => r.flight === 'Ready');

export type FitSubmitInput = FitRequestInput & { task: 'regression' | 'classification' };
/** A failure: SPEC's `error`, and its `detail` with the server's reason (e.g. the upload went away) for the form's line. */
export type FitSubmitResult = { runId: string } | { error: string; detail?: string; fieldErrors?: Record<string, string> };
export interface ReuseSubmitInput {
  name: string;
  model: string;
  upload: string | null;
  /** Values per vector as typed, for the OpenAI text embeddings model ('' or absent: its default). */
  dimensions?: string;
}

/** How often an upload sent from the fit form is checked while it is being analysed. */
export const FIT_FOLLOW_MS = 2_000;

export function useFitRequest(
  clientId: string,
  projectId: string,
): {
  /** The client's plan (Individual until the permission list has loaded). */
  plan: Plan;
  /** The client's and the project's names (for breadcrumbs), once loaded. */
  clientName: string | undefined;
  project: string | undefined;
  readyUploads: Upload[];
  /** True until both the plan and the uploads are known. */
  loading: boolean;
  /** The project is not there (unknown, removed or another client's): its upload list could not be read for that. */
  missing: boolean;
  /** The chosen upload ('' for none) and choosing one. */
  upload: string;
  choose(uploadId: string): void;
  /** The column sizes the chosen upload's analysis gives (fitSizesOf), for the form to start from; null when none. */
  suggestedSizes: { inputs: number; outputs: number } | null;
  /**
   * Follows an upload just sent from the form until it is analysed: it is chosen once Ready; `following` is it
   * while it is Pending or Processing.
   */
  follow(uploadId: string): void;
  following: Upload | undefined;
  /**
   * The chosen upload's columns and the picks on them (target, inputs, task, the sizes they make). While the upload
   * has named columns, submit sends the picks: the sizes and task it is given are replaced by theirs.
   */
  columns: FitColumnsState;
  /** Checks the form, then creates pile → fit run → generate run; the fit run to open, or what is wrong. */
  submit(input: FitSubmitInput): Promise<FitSubmitResult>;
  /** The project's Finished models, then the general models: a request can reuse any of them instead of training. */
  reusable: Model[];
  /**
   * Reuses a trained model: checks the name, the model and the upload, then creates only the generate run; the run
   * to open, or what is wrong.
   */
  reuse(input: ReuseSubmitInput): Promise<FitSubmitResult>;
  /** Whether a model cannot be picked for want of an integration key (the form says so and links to Integrations). */
  needsKey(modelId: string): boolean;
} {
  const api = useApi();
  const notify = useNotify();
  const { client, loading: clientLoading } = useClient(clientId);
  const plan: Plan = client?.plan ?? 'Individual';
  const [upload, choose] = useState('');
  const [followed, setFollowed] = useState<string | null>(null);
  const unsettled = (list: readonly Upload[]) =>
    list.some((r) => r.stamp === followed && (r.flight === 'Pending' || r.flight === 'Processing'));
  const uploadsQuery = { active: 1 as const, bucket: projectId };
  const uploads = useLoad(callKey('rendList', uploadsQuery), (signal) => api.calls.rendList(uploadsQuery, { signal }), {
    failure: MESSAGES.fetchUploads,
    pollMs: followed ? FIT_FOLLOW_MS : undefined,
    until: (r) => !unsettled(r.rend.list),
  });
  const list = uploads.data?.rend.list;
  const readyUploads = useMemo(() => ready(list), [list]);
  const followedUpload = followed ? list?.find((r) => r.stamp === followed) : undefined;
  // The followed upload settled: a Ready one is chosen; either way it is no longer followed.
  if (followedUpload && followedUpload.flight !== 'Pending' && followedUpload.flight !== 'Processing') {
    if (followedUpload.flight === 'Ready') choose(followedUpload.stamp);
    setFollowed(null);
  }
  const follow = useCallback((uploadId: string) => setFollowed(uploadId), []);
  const chosen = readyUploads.find((r) => r.stamp === upload);
  const suggestedSizes = useMemo(() => fitSizesOf(chosen, plan), [chosen, plan]);
  const ownQuery = { active: 1 as const, bucket: projectId };
  const own = useLoad(callKey('clientModelList', ownQuery), (signal) => api.calls.clientModelList(ownQuery, { signal }), {
    failure: MESSAGES.loadTransformations,
  });
  const general = useLoad(callKey('generalModelList', { active: 1 }), (signal) => api.calls.generalModelList({ active: 1 }, { signal }), {
    failure: MESSAGES.loadTransformations,
  });
  const reusable = useMemo(() => reusableModels(own.data?.model.list ?? [], general.data?.model.list ?? []), [own.data, general.data]);
  const columns = useFitColumns(chosen, plan);
  const named = columns.columns.length > 0;
  const keysQuery = { client: clientId };
  const keys = useLoad(callKey('integrationList', keysQuery), (signal) => api.calls.integrationList(keysQuery, { signal }));
  const activeKeys = keys.data?.apikey.list;
  const needsKey = useCallback((modelId: string) => modelNeedsKey(modelId, activeKeys), [activeKeys]);

  const reuse = useCallback(
    async (input: ReuseSubmitInput): Promise<FitSubmitResult> => {
      const fieldErrors: Record<string, string> = {};
      const name = checkTitle(input.name, 'create');
      if (name) fieldErrors.name = name;
      if (!reusable.some((m) => m.stamp === input.model)) fieldErrors.model = MESSAGES.selectModel;
      else if (needsKey(input.model)) fieldErrors.model = TEXT_EMBEDDING_MESSAGES.noKey;
      const unusable = input.upload ? fitUploadProblem(readyUploads.find((r) => r.stamp === input.upload)) : MESSAGES.selectUpload;
      if (unusable) fieldErrors.upload = unusable;
      const width = isTextEmbeddingModel(input.model) && input.dimensions?.trim() ? input.dimensions : undefined;
      const wrongWidth = width === undefined ? null : checkDimensions(width);
      if (wrongWidth) fieldErrors.dimensions = wrongWidth;
      const first = firstError(fieldErrors);
      if (first) return { error: first, fieldErrors };
      try {
        const args = { project: projectId, upload: input.upload!, model: input.model, name: input.name };
        return { runId: await createReuseRequest(api, { ...args, dimensions: width === undefined ? undefined : Number(width) }) };
      } catch (e) {
        const error = toApiError(e, MESSAGES.createRequest);
        if (!error.isAuth) notify(error.display, 'error');
        return { error: error.display, detail: error.detail };
      }
    },
    [api, projectId, notify, readyUploads, reusable, needsKey],
  );

  const submit = useCallback(
    async (asked: FitSubmitInput): Promise<FitSubmitResult> => {
      // With named columns the sizes and the task are the picks'; the picks' own problems come first.
      const input: FitSubmitInput = named
        ? { ...asked, inputs: columns.sizes.inputs, outputs: columns.sizes.outputs, target: 1, task: columns.picks.task }
        : asked;
      const fieldErrors = { ...(checkFitRequest(input, plan) as Record<string, string>), ...(named ? columns.errors : {}) };
      const first = (named ? firstError(columns.errors) : null) ?? firstError(fieldErrors);
      if (first) return { error: first, fieldErrors };
      const unusable = fitUploadProblem(readyUploads.find((r) => r.stamp === input.upload));
      if (unusable) return { error: unusable, fieldErrors: { upload: unusable } };
      try {
        const { fit } = await createFitRequest(api, {
          project: projectId,
          upload: input.upload!,
          name: input.name,
          param: {
            explainability: input.explainability,
            input_column_size: Number(input.inputs),
            output_column_size: Number(input.outputs),
            task_target_size: Number(input.target),
            task: input.task,
            ...(named ? { input_columns: columns.picks.inputs, target_columns: [columns.picks.target] } : {}),
          },
        });
        return { runId: fit };
      } catch (e) {
        const error = toApiError(e, MESSAGES.createRequest);
        if (!error.isAuth) notify(error.display, 'error');
        return { error: error.display, detail: error.detail };
      }
    },
    [api, projectId, notify, plan, readyUploads, named, columns.sizes, columns.picks, columns.errors],
  );
  return {
    plan,
    clientName: client?.name,
    project: uploads.data?.bucket?.name,
    readyUploads,
    loading: clientLoading || uploads.loading,
    missing: uploads.missing,
    upload,
    choose,
    suggestedSizes,
    follow,
    following: followedUpload,
    columns,
    submit,
    reusable,
    reuse,
    needsKey,
  };
}

export type ShrinkSubmitResult = { quoteId: string } | { error: string };
/** A checked form waits for the user's yes: the question to ask (what will be billed), or what is wrong. */
export type ShrinkReviewResult = { question: string } | { error: string; fieldErrors: ShrinkFieldErrors };
export type ShrinkFieldErrors = Partial<Record<'name' | 'desc' | 'upload', string>>;

/** How often a chosen upload that is still being analysed is checked (it is counted within seconds). */
export const SHRINK_FOLLOW_MS = 2_000;

/** The shrink picker's view: the project's uploads, the client's billing, and the wait before the next read. */
type ShrinkPicker = { uploads: Upload[]; project: string | undefined; billing: Billing; nextCheckMs: number };

export function useShrinkRequest(
  clientId: string,
  projectId: string,
): {
  readyUploads: Upload[];
  /** Every upload of the project, Ready or not (to show what is still processing). */
  uploads: Upload[];
  billing: Billing | undefined;
  /** The project's name (for breadcrumbs), once the uploads have loaded. */
  project: string | undefined;
  loading: boolean;
  /** True while the reload control's check runs. */
  reloading: boolean;
  /** The wait before the next automatic check (20 s, growing by 20 s per unchanged answer up to 60 s). */
  nextCheckMs: number;
  error: ApiError | null;
  /** The project is not there (unknown, removed or another client's): its upload list could not be read for that. */
  missing: boolean;
  /** The price of processing these uploads, in cents ($0.22 per started million input parameters). */
  estimateCents(uploadIds: string[]): number;
  /** The reload control: checks at once and restarts the polling interval logic. */
  reload(): Promise<void>;
  /** The chosen upload's id ('' for none), the upload itself once listed, and choosing one. */
  upload: string;
  chosen: Upload | undefined;
  choose(uploadId: string): void;
  /** Estimate - free credit = amount due for the chosen upload, in cents; null until it is Ready and billing is known. */
  price: ShrinkPrice | null;
  estimate: number | null;
  freeCredit: number | null;
  amountDue: number | null;
  /** The price line every door shows: "Estimate $x - free credit $y = amount due $z". */
  priceText: string | null;
  /** The question waiting for the user's answer after `review`, else null. */
  question: string | null;
  /** Checks the form; when it is fine, holds it and asks the question (nothing is created or billed yet). */
  review(input: { name: string; desc: string }): ShrinkReviewResult;
  /** The user's yes: creates pile → quote with the held form; the quote to open, or what is wrong. */
  confirm(): Promise<ShrinkSubmitResult>;
  /** The user's no: back to the form, nothing created. */
  cancel(): void;
} {
  const api = useApi();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [reloading, setReloading] = useState(false);
  const [upload, setUpload] = useState('');
  const [held, setHeld] = useState<{ name: string; desc: string; upload: string; question: string } | null>(null);

  const following = (list: readonly Upload[]) => {
    const r = list.find((x) => x.stamp === upload);
    return r?.flight === 'Pending' || r?.flight === 'Processing';
  };
  // The picker's uploads and billing, one view read on a growing interval: 20 s, +20 s per unchanged answer up to
  // 60 s, back to 20 s on a change (billing.portalUrl is signed afresh on every call: it is left out of the comparison).
  const key = viewKey('rendList', { active: 1, bucket: projectId, client: clientId }, 'shrinkPicker');
  const picker = useLoad(
    key,
    async (signal): Promise<ShrinkPicker> => {
      const [uploadList, billing] = await Promise.all([
        api.calls.rendList({ active: 1, bucket: projectId }, { signal }),
        api.calls.billingStatus({ client: clientId }, { signal }),
      ]);
      const before = queryClient.getQueryData<ShrinkPicker>(key);
      const next = { uploads: uploadList.rend.list, project: uploadList.bucket?.name, billing: billing.billing };
      const same = before && sameAnswer([before.uploads, before.billing], [next.uploads, next.billing], VOLATILE_FIELDS);
      return { ...next, nextCheckMs: same ? Math.min(POLL_MAX_MS, before.nextCheckMs + POLL_STEP_MS) : POLL_START_MS };
    },
    // A model just uploaded (or still being analysed) is followed closely rather than at the picker's pace.
    { failure: MESSAGES.fetchUploads, pollMs: (d) => (following(d.uploads) ? SHRINK_FOLLOW_MS : d.nextCheckMs) },
  );
  const nextCheckMs = picker.data?.nextCheckMs ?? POLL_START_MS;

  const uploads = useMemo(() => picker.data?.uploads ?? [], [picker.data?.uploads]);
  const readyUploads = useMemo(() => ready(uploads), [uploads]);
  const chosen = uploads.find((r) => r.stamp === upload);
  const estimateCents = useCallback(
    (uploadIds: string[]) => estimatePriceCents(uploads.filter((r) => uploadIds.includes(r.stamp)).flatMap((r) => r.upload.list)),
    [uploads],
  );
  const { reload: read } = picker;
  const reload = useCallback(async () => {
    setReloading(true);
    try {
      await read();
    } finally {
      setReloading(false);
    }
  }, [read]);

  const price = useMemo(() => shrinkPriceOf(chosen, picker.data?.billing), [chosen, picker.data?.billing]);
  // Which uploads a shrink can use is core's rule: a chosen upload it refuses is named with the reason before submit.
  const chosenChoice = useMemo(() => (chosen ? shrinkChoice(chosen) : null), [chosen]);
  const choose = useCallback((uploadId: string) => {
    setUpload(uploadId);
    setHeld(null);
  }, []);

  const review = useCallback(
    (input: { name: string; desc: string }): ShrinkReviewResult => {
      const fieldErrors: ShrinkFieldErrors = {};
      const name = checkTitle(input.name, 'create');
      const desc = checkDescription(input.desc);
      if (name) fieldErrors.name = name;
      if (desc) fieldErrors.desc = desc;
      if (!upload) fieldErrors.upload = MESSAGES.selectUpload;
      else if (!readyUploads.some((r) => r.stamp === upload)) fieldErrors.upload = MESSAGES.uploadNotFound;
      else if (chosenChoice && !chosenChoice.ok) fieldErrors.upload = chosenChoice.reason;
      else if (!price) fieldErrors.upload = MESSAGES.shrinkPriceUnknown;
      const first = fieldErrors.name ?? fieldErrors.desc ?? fieldErrors.upload;
      if (first || !price) return { error: first ?? MESSAGES.shrinkPriceUnknown, fieldErrors };
      const question = shrinkConfirmQuestion(price);
      setHeld({ name: input.name, desc: input.desc, upload, question });
      return { question };
    },
    [price, readyUploads, upload, chosenChoice],
  );

  const confirm = useCallback(async (): Promise<ShrinkSubmitResult> => {
    if (!held) return { error: MESSAGES.selectUpload };
    try {
      const quoteId = await createShrinkRequest(api, { project: projectId, upload: held.upload, name: held.name, desc: held.desc });
      setHeld(null);
      return { quoteId };
    } catch (e) {
      const error = toApiError(e, MESSAGES.createRequest);
      setHeld(null);
      if (!error.isAuth) notify(error.display, 'error');
      return { error: error.display };
    }
  }, [api, projectId, held, notify]);
  const cancel = useCallback(() => setHeld(null), []);

  return {
    readyUploads,
    uploads,
    billing: picker.data?.billing,
    project: picker.data?.project,
    loading: picker.loading,
    reloading,
    nextCheckMs,
    error: picker.error,
    missing: picker.missing,
    estimateCents,
    reload,
    upload,
    chosen,
    choose,
    price,
    estimate: price?.estimateCents ?? null,
    freeCredit: price?.freeCreditCents ?? null,
    amountDue: price?.amountDueCents ?? null,
    priceText: price ? formatShrinkPrice(price) : null,
    question: held?.question ?? null,
    review,
    confirm,
    cancel,
  };
}
