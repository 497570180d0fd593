// Quotes, billing and usage: their schemas and their calls of the route table (one module of calls.ts, loaded on its own by the
// API client when a door first makes one of them).
import * as z from 'zod/mini';
import { MESSAGES } from '../../messages';
import { USAGE_DAYS_MAX } from '../constants';
import { Billing, Bucket, Client, Id, Quote, Run, UsageDay, UsageTotals } from '../entities';
import { ClientQuery, call, wholeUpTo } from './common';

export const UsageQuery = z.object({
  client: Id,
  days: z._default(wholeUpTo('days', USAGE_DAYS_MAX), 30),
  /** Only this project's usage (the per-project split still lists every project). */
  bucket: z.optional(Id),
});
/** A quote as the usage page lists it: with its project, so it links to its details. */
export const UsageQuote = z.extend(Quote, { bucket: Id });
export type UsageQuote = z.infer<typeof UsageQuote>;
/** One project's share of the period: its requests, input parameters and amount quoted. */
export const UsageProject = z.extend(UsageTotals, { bucket: Id, name: z.string() });
export type UsageProject = z.infer<typeof UsageProject>;
export const UsageResponse = z.object({
  usage: z.object({ days: z.array(UsageDay), totals: UsageTotals, projects: z.optional(z.array(UsageProject)) }),
  quote: z.object({ list: z.array(UsageQuote) }),
});

export const QuoteStatusQuery = z.object({ quote: Id });
export const QuoteStatusResponse = z.object({
  client: Client,
  bucket: Bucket,
  quote: z.object({ record: Quote, run: z.nullable(Run) }),
});
export const BillingResponse = z.object({ billing: Billing });

// ---- the calls ----
export const BILLING_CALLS = {
  clientUsage: call({ method: 'GET', path: '/api/client/usage', query: UsageQuery, response: UsageResponse }),
  quoteStatus: call({
    method: 'GET',
    path: '/api/quote/status',
    query: QuoteStatusQuery,
    response: QuoteStatusResponse,
    failure: MESSAGES.loadQuote,
  }),
  billingStatus: call({ method: 'GET', path: '/api/client/billing/status', query: ClientQuery, response: BillingResponse }),
} as const;
