// Hooks of the detail screens: a request's status and result, a quote with its run, the client's billing.
import { useCallback } from 'react';
import { ApiError } from '../client';
import { isFinalState, QUOTE_UNPAID, type Billing, type CallResponse } from '../contract';
import { resultFileName } from '../format';
import { toApiError } from '../loader';
import { MESSAGES } from '../messages';
import { useApi, useNotify } from './context';
import { useLoad, type Loaded } from './useLoad';

export type RunStatusResponse = CallResponse<'runStatus'>;
export type QuoteStatusResponse = CallResponse<'quoteStatus'>;

/** While a request runs its status is polled this often. */
export const RUN_POLL_MS = 3_000;
/** An unpaid quote waits for a person: poll it less often. */
export const QUOTE_UNPAID_POLL_MS = 15_000;

export function useRunDetails(
  clientId: string,
  bucketId: string,
  runId: string,
): Loaded<RunStatusResponse> & {
  /** Fetches the result; rejects (after notifying) when there is none or it cannot be read. */
  download(): Promise<{ fileName: string; text: string }>;
} {
  const api = useApi();
  const notify = useNotify();
  const loaded = useLoad((signal) => api.calls.runStatus({ run: runId }, { signal }), [api, clientId, bucketId, runId], {
    failure: MESSAGES.loadRun,
    pollMs: RUN_POLL_MS,
    until: (d) => isFinalState(d.run.record.state),
  });
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
  return { ...loaded, download };
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
