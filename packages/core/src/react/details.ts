// Hooks of the detail screens: a request's status and result, a quote with its run, the client's billing.
import { useCallback, useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../client';
import { isFinalState, QUOTE_UNPAID, RUN_EVENTS_PAGE, type Billing, type CallResponse, type RunEvent } from '../contract';
import {
  canRerun,
  DEFAULT_USAGE_DAYS,
  runDuration,
  runInsight,
  settledIn,
  stateTimeline,
  type LossPoint,
  type RunProgress,
} from '../insight';
import { resultFileName } from '../format';
import { toApiError } from '../loader';
import { MESSAGES } from '../messages';
import { callKey, viewKey } from '../query';
import { useApi, useNotify } from './context';
import { useLoad, type Loaded } from './useLoad';

export type RunStatusResponse = CallResponse<'runStatus'>;
export type QuoteStatusResponse = CallResponse<'quoteStatus'>;

/** While a request waits its status is polled this often. */
export const RUN_POLL_MS = 3_000;
/** While a request is processing, its status and events are polled this often (the live loss chart). */
export const RUN_LIVE_POLL_MS = 1_000;

/** The run's status and events; for a generate request also the events of its model's training (`modelEvents`). */
export type RunDetailsData = RunStatusResponse & { events: RunEvent[]; modelEvents: RunEvent[] };

/** Appends a run's events after the last one held, a page at a time until a short page. */
async function readEvents(api: ReturnType<typeof useApi>, run: string, held: RunEvent[], signal: AbortSignal): Promise<RunEvent[]> {
  let events = held;
  for (;;) {
    const page = (await api.calls.runEvents({ run, after: events.at(-1)?.seq ?? 0 }, { signal })).event.list;
    if (page.length) events = [...events, ...page];
    // A page shorter than the server's page size is the last one.
    if (page.length < RUN_EVENTS_PAGE) return events;
  }
}
/** An unpaid quote waits for a person: poll it less often. */
export const QUOTE_UNPAID_POLL_MS = 15_000;

export function useRunDetails(
  clientId: string,
  projectId: string,
  runId: string,
): Loaded<RunDetailsData> & {
  /** Fetches the result; rejects (after notifying) when there is none or it cannot be read. */
  download(): Promise<{ fileName: string; text: string }>;
  /** The run's event log so far, oldest first. */
  events: RunEvent[];
  progress: RunProgress | null;
  /** Training and validation loss per epoch (a fit's, or for a generate request its model's training). */
  loss: LossPoint[];
  timeline: Array<{ state: string; at: number; message: string }>;
  /** Seconds from start to settling (or to now while it works); null before it started. */
  duration: number | null;
  canRerun: boolean;
  /** Makes the request again (same upload and parameters); resolves to the new run's stamp, or null (notified). */
  rerun(): Promise<string | null>;
  rerunning: boolean;
} {
  const api = useApi();
  const notify = useNotify();
  const queryClient = useQueryClient();
  // The request's status with its events and its model's: one view; events arrive a page at a time after the last
  // one held in the cache.
  const key = viewKey('runStatus', { run: runId }, 'withEvents');
  const loaded = useLoad(
    key,
    async (signal): Promise<RunDetailsData & { modelGone?: boolean }> => {
      const held = queryClient.getQueryData<RunDetailsData & { modelGone?: boolean }>(key);
      // Status first, then events: every event written before the status was read is in this answer.
      const status = await api.calls.runStatus({ run: runId }, { signal });
      const events = await readEvents(api, runId, held?.events ?? [], signal);
      let modelEvents = held?.modelEvents ?? [];
      let modelGone = held?.modelGone ?? false;
      const fit = status.run.record.function === 'generate' ? status.run.record.fit : null;
      if (fit && !modelGone && !settledIn(modelEvents)) {
        try {
          modelEvents = await readEvents(api, fit, modelEvents, signal);
        } catch (e) {
          // A removed model's training log is gone with it: the request shows its own events only.
          if ((e as { status?: number }).status !== 404) throw e;
          modelGone = true;
        }
      }
      return { ...status, events, modelEvents, modelGone };
    },
    {
      failure: MESSAGES.loadRun,
      // Live while it works, or while the model it waits for trains.
      pollMs: (d) =>
        d.run.record.state === 'Processing' || (d.run.record.state === 'Pending' && d.modelEvents.length > 0 && !settledIn(d.modelEvents))
          ? RUN_LIVE_POLL_MS
          : RUN_POLL_MS,
      until: (d) => isFinalState(d.run.record.state),
    },
  );
  const url = loaded.data?.run.url ?? null;
  const download = useCallback(async () => {
    try {
      if (!url) throw new ApiError(0, 'no_result', 'The request has no result yet', MESSAGES.loadRun);
      const text = await api.downloadText(url);
      return { fileName: resultFileName(), text };
    } catch (e) {
      const error = toApiError(e, MESSAGES.loadRun);
      if (!error.isAuth) notify(error.display, 'error');
      throw error;
    }
  }, [api, notify, url]);
  const [rerunning, setRerunning] = useState(false);
  const rerun = useCallback(async () => {
    setRerunning(true);
    try {
      return (await api.calls.runRerun({ run: runId })).run.stamp;
    } catch (e) {
      const error = toApiError(e, MESSAGES.createRequest);
      if (!error.isAuth) notify(error.display, 'error');
      return null;
    } finally {
      setRerunning(false);
    }
  }, [api, notify, runId]);
  const data = loaded.data;
  const insight = useMemo(() => {
    const events = data?.events ?? [];
    const record = data?.run.record;
    const shown = record ? runInsight(record, events, data?.modelEvents) : { progress: null, loss: [], timeline: stateTimeline(events) };
    return {
      events,
      ...shown,
      duration: record ? runDuration(record) : null,
      canRerun: record ? canRerun(record) : false,
    };
  }, [data]);
  return { ...loaded, ...insight, download, rerun, rerunning };
}

export type UsageResponse = CallResponse<'clientUsage'>;

/** A client's usage over 7, 30 or 90 days (UTC days), and the quotes of the period. */
/** The client's usage over `days`; `project` narrows the days to one project ('' for all; the split by project stays whole). */
export function useUsage(
  clientId: string,
  initial: { days?: number; project?: string } = {},
): Loaded<UsageResponse> & { days: number; setDays(days: number): void; project: string; setProject(project: string): void } {
  const api = useApi();
  const [days, setDays] = useState<number>(initial.days ?? DEFAULT_USAGE_DAYS);
  const [project, setProject] = useState(initial.project ?? '');
  const query = { client: clientId, days, bucket: project || undefined };
  const loaded = useLoad(callKey('clientUsage', query), (signal) => api.calls.clientUsage(query, { signal }), {
    failure: MESSAGES.loadUsage,
  });
  return { ...loaded, days, setDays, project, setProject };
}

export function useQuoteDetails(clientId: string, projectId: string, quoteId: string): Loaded<QuoteStatusResponse> {
  const api = useApi();
  return useLoad(callKey('quoteStatus', { quote: quoteId }), (signal) => api.calls.quoteStatus({ quote: quoteId }, { signal }), {
    failure: MESSAGES.loadQuote,
    pollMs: (d) => (d.quote.record.state === QUOTE_UNPAID ? QUOTE_UNPAID_POLL_MS : RUN_POLL_MS),
    until: (d) => !!d.quote.run && isFinalState(d.quote.run.state),
  });
}

const billingOf = (res: CallResponse<'billingStatus'>) => res.billing;

export function useBilling(clientId: string): Loaded<Billing> {
  const api = useApi();
  return useLoad(callKey('billingStatus', { client: clientId }), (signal) => api.calls.billingStatus({ client: clientId }, { signal }), {
    select: billingOf,
  });
}
