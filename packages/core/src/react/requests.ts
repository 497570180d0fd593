// Hooks of the two request forms: fit (with plan limits) and shrink (with the reload poller and a price estimate).
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ApiError } from '../client';
import type { Billing, Plan, Rend } from '../contract';
import { createFitRequest, createShrinkRequest } from '../flows';
import { estimatePriceCents } from '../format';
import { toApiError } from '../loader';
import { MESSAGES } from '../messages';
import { changeDetector, ReloadPoller } from '../poller';
import { checkDescription, checkFitRequest, checkTitle, firstError, type FitRequestInput } from '../rules';
import { useApi, useNotify } from './context';
import { useClient } from './lists';
import { useLoad } from './useLoad';

const ready = (list: readonly Rend[] | undefined) => (list ?? []).filter((r) => r.flight === 'Ready');

export type FitSubmitInput = FitRequestInput & { task: 'regression' | 'classification' };
export type FitSubmitResult = { runId: string } | { error: string; fieldErrors?: Record<string, string> };

export function useFitRequest(clientId: string, bucketId: string): {
  /** The client's plan (Individual until the permission list has loaded). */
  plan: Plan;
  readyUploads: Rend[];
  /** True until both the plan and the uploads are known. */
  loading: boolean;
  /** Checks the form, then creates pile → fit run → generate run; the run to open, or what is wrong. */
  submit(input: FitSubmitInput): Promise<FitSubmitResult>;
} {
  const api = useApi();
  const notify = useNotify();
  const { client, loading: clientLoading } = useClient(clientId);
  const plan: Plan = client?.plan ?? 'Individual';
  const uploads = useLoad((signal) => api.calls.rendList({ active: 1, bucket: bucketId }, { signal }), [api, bucketId], { failure: MESSAGES.fetchUploads });
  const readyUploads = useMemo(() => ready(uploads.data?.rend.list), [uploads.data]);

  const submit = useCallback(
    async (input: FitSubmitInput): Promise<FitSubmitResult> => {
      const fieldErrors = checkFitRequest(input, plan) as Record<string, string>;
      const first = firstError(fieldErrors);
      if (first) return { error: first, fieldErrors };
      if (!readyUploads.some((r) => r.stamp === input.upload)) return { error: MESSAGES.uploadNotFound, fieldErrors: { upload: MESSAGES.uploadNotFound } };
      try {
        const runId = await createFitRequest(api, {
          bucket: bucketId,
          upload: input.upload!,
          name: input.name,
          param: {
            explainability: input.explainability,
            input_column_size: Number(input.inputs),
            output_column_size: Number(input.outputs),
            task_target_size: Number(input.target),
            task: input.task,
          },
        });
        return { runId };
      } catch (e) {
        const error = toApiError(e, MESSAGES.createRequest);
        if (!error.isAuth) notify(error.display, 'error');
        return { error: error.display };
      }
    },
    [api, bucketId, notify, plan, readyUploads],
  );
  return { plan, readyUploads, loading: clientLoading || uploads.loading, submit };
}

export type ShrinkSubmitResult = { quoteId: string } | { error: string };

export function useShrinkRequest(clientId: string, bucketId: string): {
  readyUploads: Rend[];
  /** Every upload of the project, Ready or not (to show what is still processing). */
  uploads: Rend[];
  billing: Billing | undefined;
  loading: boolean;
  error: ApiError | null;
  /** The price of processing these uploads, in cents ($0.22 per started million input parameters). */
  estimateCents(rendIds: string[]): number;
  /** The reload control: checks at once and restarts the polling interval logic. */
  reload(): void;
  submit(input: { name: string; desc: string; upload: string }): Promise<ShrinkSubmitResult>;
} {
  const api = useApi();
  const notify = useNotify();
  const [state, setState] = useState<{ uploads?: Rend[]; billing?: Billing; error: ApiError | null; loading: boolean }>({ error: null, loading: true });

  const poller = useMemo(() => {
    const changed = changeDetector<unknown>();
    let failing = false;
    const p = new ReloadPoller(
      async () => {
        const [rends, billing] = await Promise.all([api.calls.rendList({ active: 1, bucket: bucketId }), api.calls.billingStatus({ client: clientId })]);
        // A stopped poller (other project, unmounted) must not overwrite the current screen.
        if (!p.active) return false;
        failing = false;
        setState({ uploads: rends.rend.list, billing: billing.billing, error: null, loading: false });
        return changed([rends.rend.list, billing.billing]);
      },
      {
        onError: (e) => {
          if (!p.active) return;
          const error = toApiError(e, MESSAGES.fetchUploads);
          setState((s) => ({ ...s, error, loading: false }));
          if (!failing && !error.isAuth) notify(MESSAGES.fetchUploads, 'error');
          failing = true;
        },
      },
    );
    return p;
  }, [api, clientId, bucketId, notify]);

  useEffect(() => {
    void poller.reload();
    return () => poller.stop();
  }, [poller]);

  const uploads = useMemo(() => state.uploads ?? [], [state.uploads]);
  const readyUploads = useMemo(() => ready(uploads), [uploads]);
  const estimateCents = useCallback(
    (rendIds: string[]) => estimatePriceCents(uploads.filter((r) => rendIds.includes(r.stamp)).flatMap((r) => r.upload.list)),
    [uploads],
  );
  const reload = useCallback(() => void poller.reload(), [poller]);

  const submit = useCallback(
    async (input: { name: string; desc: string; upload: string }): Promise<ShrinkSubmitResult> => {
      const invalid = checkTitle(input.name, 'create') ?? checkDescription(input.desc) ?? (input.upload ? null : MESSAGES.selectUpload);
      if (invalid) return { error: invalid };
      if (!readyUploads.some((r) => r.stamp === input.upload)) return { error: MESSAGES.uploadNotFound };
      try {
        return { quoteId: await createShrinkRequest(api, { bucket: bucketId, upload: input.upload, name: input.name, desc: input.desc }) };
      } catch (e) {
        const error = toApiError(e, MESSAGES.createRequest);
        if (!error.isAuth) notify(error.display, 'error');
        return { error: error.display };
      }
    },
    [api, bucketId, notify, readyUploads],
  );

  return { readyUploads, uploads, billing: state.billing, loading: state.loading, error: state.error, estimateCents, reload, submit };
}
