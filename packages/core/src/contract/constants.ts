// The contract's plain values (states, page sizes, bounds): no schema, so a program that only needs these (the CLI's
// start-up, `portal --version`) never loads or builds the schemas.

/** Final states: polling stops once a run, model or quote run reaches one. */
export const FINAL_STATES: readonly string[] = ['Finished', 'Failed'];
export const isFinalState = (state: string) => FINAL_STATES.includes(state);
export const QUOTE_UNPAID = 'Unpaid';
export const QUOTE_PAID = 'Paid';
/** Most events one answer carries; a follower asks again from the last `seq` it has. */
export const RUN_EVENTS_PAGE = 500;
/** The longest usage period one call covers, in days. */
export const USAGE_DAYS_MAX = 400;

// ---- calls: error codes and paging ----
export const ERROR_CODES = {
  invalid: 'invalid_input',
  unauthorized: 'unauthorized',
  tokenMissing: 'token_missing',
  tokenExpired: 'token_expired',
  forbidden: 'forbidden',
  notFound: 'not_found',
  conflict: 'conflict',
  tooLarge: 'too_large',
  /** A 503 of /api/ready: this process should get no traffic now (starting, stopping, or a part it needs is down). */
  notReady: 'not_ready',
  rateLimited: 'rate_limited',
  /** A 401 about an invitation link (expired, withdrawn or used), not about the session: the sign-in stays. */
  inviteInvalid: 'invite_invalid',
  /** A 507: the server's disk (storage or database) is full; nothing of the call was saved. */
  storageFull: 'storage_full',
  internal: 'internal',
} as const;
/** Most rows one page of a list carries. */
export const LIST_PAGE_MAX = 200;
/** The orders a paged list can be asked for (`order`); without one, each list keeps its own (docs/DECISIONS.md). */
export const LIST_ORDERS = ['newest', 'oldest'] as const;
export type ListOrder = (typeof LIST_ORDERS)[number];

// ---- the upload preview (preview.ts) ----
/** Rows a preview shows (the dataset viewer's first page). */
export const PREVIEW_ROWS = 100;
/** Columns a preview keeps: wider tables show their first columns and say how many there are. */
export const PREVIEW_COLUMNS = 50;
/** Bars in a column's histogram. */
export const PREVIEW_BINS = 10;
/** Characters of a text a preview keeps (its whole length is still given). */
export const PREVIEW_TEXT_CHARS = 2_000;
/** Most distinct values a preview lists for a category or boolean column. */
export const PREVIEW_VALUES = 20;
/** Sentences of the preview call. */
export const PREVIEW_NOTES = {
  analysing: 'This file is still being analysed; its preview appears when it is Finished.',
  failed: 'This file could not be read, so it has no preview.',
  older: 'This file was analysed before previews existed; upload it again to see one.',
  binary: 'This file holds arrays or a pickled object: its sizes are shown above; a row-by-row preview covers .json and .txt tables.',
} as const;

// ---- the embedding map (projection.ts) ----
/** Columns a map can be coloured by (the first ones of the upload, the targets always among them). */
export const PROJECTION_COLOUR_COLUMNS = 30;
/** Most points a map holds; beyond this the worker keeps an even sample and the map says so. */
export const PROJECTION_MAX_POINTS = 100_000;
/** Input values kept per point for the hover (the first columns). */
export const PROJECTION_INPUTS = 6;
export const PROJECTION_NOTES = {
  waiting: 'The map appears when the request is Finished.',
  none: 'This request has no map: maps are drawn for generate requests finished after maps existed.',
} as const;

// ---- webhooks (webhooks.ts) ----
/** Seconds between the listen stream's pings (a proxy's idle timeout is longer). */
export const WEBHOOK_LISTEN_PING_S = 20;
