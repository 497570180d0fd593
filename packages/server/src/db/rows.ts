// Row builders: the columns a new row starts with, shared by the routes, billing and the test kit.
import type { Insertable } from 'kysely';
import { QUOTE_UNPAID } from '@portal/core';
import type { JobTable, ModelTable, QuoteTable, RunTable } from './schema';

/** What a new run must be told; every other column may be given and otherwise starts as a Pending run's. */
export type NewRun = Pick<Insertable<RunTable>, 'stamp' | 'bucket' | 'rend' | 'name' | 'function' | 'inputs' | 'created_at'> &
  Partial<Insertable<RunTable>>;

/** A new request's row: Pending, active, no file, model, fit, quote or result unless told. */
export const newRunRow = (run: NewRun): Insertable<RunTable> => ({
  pile: null,
  fit: null,
  quote: null,
  model: null,
  desc: '',
  state: 'Pending',
  message: '',
  result_key: null,
  active: 1,
  ...run,
});

/** What a new model must be told; every other column may be given and otherwise starts as a Pending model's. */
export type NewModel = Pick<Insertable<ModelTable>, 'stamp' | 'bucket' | 'rend' | 'name' | 'created_at'> & Partial<Insertable<ModelTable>>;

/** A new model's row: Pending, active, no run, description, message or trained data unless told. */
export const newModelRow = (model: NewModel): Insertable<ModelTable> => ({
  run: null,
  desc: '',
  state: 'Pending',
  message: '',
  data: null,
  active: 1,
  ...model,
});

/** What a new shrink quote must be told; every other column may be given and otherwise starts as an Unpaid quote's. */
export type NewQuote = Pick<
  Insertable<QuoteTable>,
  'stamp' | 'bucket' | 'rend' | 'name' | 'cent' | 'invoice_num' | 'inputs' | 'created_at'
> &
  Partial<Insertable<QuoteTable>>;

/** A new shrink quote's row: Unpaid, active, a shrink, no parameters, run, description or message, not paid unless told. */
export const newQuoteRow = (quote: NewQuote): Insertable<QuoteTable> => ({
  pile: null,
  run: null,
  desc: '',
  function: 'shrink',
  state: QUOTE_UNPAID,
  message: '',
  active: 1,
  paid_at: null,
  ...quote,
});

/** What a new job must be told; every other column may be given and otherwise starts as a queued job's. */
export type NewJob = Pick<Insertable<JobTable>, 'kind' | 'ref' | 'run_after' | 'created_at'> & Partial<Insertable<JobTable>>;

/** A new job's row: queued, never tried, no lease, owner, start, error, client or request unless told. */
export const newJobRow = (job: NewJob): Insertable<JobTable> => ({
  state: 'queued',
  attempts: 0,
  locked_until: null,
  error: null,
  client: null,
  owner: null,
  started_at: null,
  request_id: null,
  ...job,
});
