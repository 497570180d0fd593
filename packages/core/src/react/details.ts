// Hooks of the detail screens: a request's status and result, a quote with its run, the client's billing.
import { useCallback, useMemo, useRef, useState } from 'react';
import { ApiError } from '../client';
import { isFinalState, QUOTE_UNPAID, RUN_EVENTS_PAGE, type Billing, type CallResponse, type RunEvent } from '../contract';
import {
  canRerun,
  DEFAULT_USAGE_DAYS,
  lossSeries,
  runDuration,
  runProgress,
  stateTimeline,
  type LossPoint,
  type RunProgress,
} from '../insight';
import { resultFileName } from '../format';
import { toApiError } from '../loader';
import { MESSAGES } from '../messages';
import { useApi, useNotify } from './context';
import { useLoad, type Loaded } from './useLoad';

export type RunStatusResponse = CallResponse<'runStatus'>;
export type QuoteStatusResponse = CallResponse<'quoteStatus'>;

/** While a request waits its status is polled this often. */
export const RUN_POLL_MS = 3_000;
/** While a request is processing, its status and events are polled this often (the live loss chart). */
export const RUN_LIVE_POLL_MS = 1_000;

export type RunDetailsData = RunStatusResponse & { events: RunEvent[] };
/** An unpaid quote waits for a person: poll it less often. */
export const QUOTE_UNPAID_POLL_MS = 15_000;

export function useRunDetails(
  clientId: string,
  bucketId: string,
  runId: string,
): Loaded<RunDetailsData> & {
  /** Fetches the result; rejects (after notifying) when there is none or it cannot be read. */
  download(): Promise<{ fileName: string; text: string }>;
  /** The run's event log so far, oldest first. */
  events: RunEvent[];
  progress: RunProgress | null;
  /** Training and validation loss per epoch (a fit's). */
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
  // Events arrive a page at a time after the last one held; they are kept per run.
  const held = useRef<{ run: string; events: RunEvent[] }>({ run: runId, events: [] });
  const loaded = useLoad(
    async (signal) => {
      if (held.current.run !== runId) held.current = { run: runId, events: [] };
      // Status first, then events: every event written before the status was read is in this answer.
      const status = await api.calls.runStatus({ run: runId }, { signal });
      const mine = held.current;
      for (;;) {
        const after = mine.events.at(-1)?.seq ?? 0;
        const page = (await api.calls.runEvents({ run: runId, after }, { signal })).event.list;
        if (page.length) mine.events = [...mine.events, ...page];
        // A page shorter than the server's page size is the last one.
        if (page.length < RUN_EVENTS_PAGE) break;
      }
      return { ...status, events: mine.events };
    },
    [api, clientId, bucketId, runId],
    {
      failure: MESSAGES.loadRun,
      pollMs: (d) => (d.run.record.state === 'Processing' ? RUN_LIVE_POLL_MS : RUN_POLL_MS),
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
    return {
      events,
      progress: record ? runProgress(record, events) : null,
      loss: lossSeries(events),
      timeline: stateTimeline(events),
      duration: record ? runDuration(record) : null,
      canRerun: record ? canRerun(record) : false,
    };
  }, [data]);
  return { ...loaded, ...insight, download, rerun, rerunning };
}

export type UsageResponse = CallResponse<'clientUsage'>;

/** A client's usage over 7, 30 or 90 days (UTC days), and the quotes of the period. */
export function useUsage(clientId: string): Loaded<UsageResponse> & { days: number; setDays(days: number): void } {
  const api = useApi();
  const [days, setDays] = useState<number>(DEFAULT_USAGE_DAYS);
  const loaded = useLoad((signal) => api.calls.clientUsage({ client: clientId, days }, { signal }), [api, clientId, days], {
    failure: MESSAGES.loadUsage,
  });
  return { ...loaded, days, setDays };
}

export function useQuoteDetails(clientId: string, bucketId: string, quoteId: string): Loaded<QuoteStatusResponse> {
  const api = useApi();
  return useLoad((signal) => api.calls.quoteStatus({ quote: quoteId }, { signal }), [api, clientId, bucketId, quoteId], {
    failure: MESSAGES.loadQuote,
    pollMs: (d) => (d.quote.record.state === QUOTE_UNPAID ? QUOTE_UNPAID_POLL_MS : RUN_POLL_MS),
    until: (d) => !!d.quote.run && isFinalState(d.quote.run.state),
  });
}

export function useBilling(clientId: string): Loaded<Billing> {
  const api = useApi();
  return useLoad(async (signal) => (await api.calls.billingStatus({ client: clientId }, { signal })).billing, [api, clientId]);
}
