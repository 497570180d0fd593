// What the quotes verbs share.
import { CONTACT_PATH, MESSAGES, formatCount, formatDollars, freeCredits, type CallResponse } from '@portal/core';
import type { Session } from '../context';
import { time } from '../common';
import { CliError } from '../errors';
import { type Shown } from '../show';

export type QuoteStatus = CallResponse<'quoteStatus'>;

export async function quoteStatus(s: Session, id: string): Promise<QuoteStatus> {
  const api = await s.api();
  return api.calls.quoteStatus({ quote: id }).catch((e) => {
    if ((e as { status?: number }).status === 404) throw new CliError(MESSAGES.requestNotFound);
    throw e;
  });
}

export const quoteState = (q: QuoteStatus) =>
  q.quote.run ? `${q.quote.record.state}, request ${q.quote.run.state}` : q.quote.record.state;

/** --wait: follows a quote until its request is final (payment happens in the payment portal). */
export async function followQuote(s: Session, id: string): Promise<QuoteStatus> {
  const { isFinalState, QUOTE_UNPAID } = await import('../heavy');
  let told = false;
  return s.follow(
    async () => {
      const q = await quoteStatus(s, id);
      if (!told && q.quote.record.state === QUOTE_UNPAID) {
        told = true;
        const api = await s.api();
        const { billing } = await api.calls.billingStatus({ client: q.client.stamp });
        s.out.notice(`Waiting for payment of ${formatDollars(q.quote.record.cent)} at ${billing.portalUrl}`);
      }
      return q;
    },
    quoteState,
    (q) => !!q.quote.run && isFinalState(q.quote.run.state),
    `Quote ${id}`,
  );
}

/** A quote, for showCommand: its processed request Finished is the good end. */
export const QUOTE_SHOWN: Shown<QuoteStatus> = {
  load: quoteStatus,
  follow: followQuote,
  print: showQuote,
  finished: (q) => q.quote.run?.state === 'Finished',
};

export async function showQuote(s: Session, q: QuoteStatus): Promise<void> {
  const api = await s.api();
  const { billing } = await api.calls.billingStatus({ client: q.client.stamp });
  const r = q.quote.record;
  const credits = freeCredits(billing);
  s.out.object({ ...q, billing }, [
    ['Name', r.name],
    ['ID', r.stamp],
    ['Description', r.desc],
    ['Status', r.state],
    ['Message', r.message],
    ['Invoice amount', formatDollars(r.cent)],
    ['Invoice ID', r.invoiceNum],
    ['Payment portal', billing.portalUrl],
    ['Created', time(r.createdAt)],
    ['Upload', r.rend?.name ?? MESSAGES.uploadDataNotFound],
    ['Project', `${q.bucket.name} (${q.bucket.stamp})`],
    [
      'Request',
      q.quote.run
        ? `${q.quote.run.name} (${q.quote.run.stamp}), ${q.quote.run.state}: portal runs show ${q.quote.run.stamp}`
        : 'starts once the invoice is paid',
    ],
    ['Free credits', `${formatCount(credits.consumed)} of ${formatCount(credits.total)} input parameters used`],
    ['Outstanding balance', formatDollars(billing.accountCentBalance)],
  ]);
  if (s.out.json) return;
  // From the heavy chunk: contract constants bring zod, which commands that never call the API must not load.
  const { QUOTE_UNPAID } = await import('../heavy');
  const contact = `${await s.baseUrl()}${CONTACT_PATH}`;
  if (r.message) s.out.notice(`${r.message} Contact Support: ${contact}`);
  if (q.quote.run?.message) s.out.notice(`${q.quote.run.message} Contact Support: ${contact}`);
  // The quote is paid in the payment portal, in a browser: the terminal can only point there.
  if (r.state === QUOTE_UNPAID) s.out.notice(`Pay ${formatDollars(r.cent)} (invoice ${r.invoiceNum}) at ${billing.portalUrl}`);
}
