// Refresh-until-settled: which rows of a list are still changing on the server, and how often the list is read again
// while any is. The list hooks poll with these; every door shows the same thing at the same pace.
import { isFinalState } from './contract/constants';

/** A request is settled once Finished or Failed; a shrink that has its quote waits for payment, not for the worker. */
export const runSettled = (run: { state: string; function: string; quote?: string | null }): boolean =>
  isFinalState(run.state) || (run.function === 'shrink' && !!run.quote);

/** An upload group is settled once Ready or Failed (analysis is over). */
export const uploadSettled = (upload: { flight: string }): boolean => upload.flight === 'Ready' || upload.flight === 'Failed';

/** How often a list with an unsettled row is read again. */
export const REFRESH_MS = { runs: 5_000, uploads: 3_000 } as const;

/**
 * A screen reads its data again, quietly (no loading state), when its window regains focus or becomes visible, so a
 * change made in another tab (a quote paid, a project renamed) shows without a reload; at most once in this long.
 */
export const FOCUS_REFRESH_MIN_MS = 5_000;
