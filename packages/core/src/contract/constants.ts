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
