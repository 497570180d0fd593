// A framework-free loader: loads on demand, aborts stale loads, polls until done; the React hook subscribes to it.
import { ApiError } from './client';
import { MESSAGES } from './messages';
import { isAbortError, systemTimers, type TimerHandle, type Timers } from './timers';

export interface LoadState<T> {
  data: T | undefined;
  error: ApiError | null;
  loading: boolean;
}

export interface LoaderOptions<T> {
  /** Poll interval after each successful load (a function picks it from the data). */
  pollMs?: number | ((data: T) => number);
  /** Stop polling once this holds. */
  until?: (data: T) => boolean;
  /** Called on a failed load; `first` is false while the same failure repeats. */
  onError?: (error: ApiError, first: boolean) => void;
  timers?: Timers;
}

/** Any failure as the one typed error the doors display. */
export function toApiError(e: unknown, display: string = MESSAGES.unexpected): ApiError {
  if (e instanceof ApiError) return e;
  return new ApiError(0, 'unexpected', (e as Error)?.message ?? String(e), display);
}

/**
 * What a list shows when it could not be loaded: the screen's SPEC message when it names one, else the failure's own;
 * nothing for sign-in failures (the door shows those and leaves the screen).
 */
export function loadFailure(error: unknown, message?: string): string | null {
  if (!error || (error instanceof ApiError && error.isAuth)) return null;
  return message ?? toApiError(error).display;
}

/**
 * Whether a failure means "no such thing here" rather than trouble: 404 unknown or removed, 403 another client's (no
 * failure at all: the answer held nothing).
 */
export const isMissing = (error: { status: number } | null | undefined): boolean => !error || error.status === 404 || error.status === 403;

/** Whether a load ended without data because what it reads is not there (isMissing): a screen says "not found". */
export const loadMissing = (data: unknown, error: { status: number } | null | undefined): boolean => !data && !!error && isMissing(error);

export class Loader<T> {
  private state: LoadState<T> = { data: undefined, error: null, loading: true };
  private readonly listeners = new Set<() => void>();
  private controller: AbortController | null = null;
  private timer: TimerHandle | null = null;
  private readonly timers: Timers;

  constructor(
    private readonly load: (signal: AbortSignal) => Promise<T>,
    private readonly opts: LoaderOptions<T> = {},
  ) {
    this.timers = opts.timers ?? systemTimers;
  }

  getSnapshot = (): LoadState<T> => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Loads now (a reload shows loading; a poll refreshes quietly). Resolves when this load settles. */
  reload = (): Promise<void> => this.run(false);

  /**
   * Reads again without showing loading (the rows stay while the new ones come, no flicker); nothing while a load is
   * already in flight.
   */
  refresh = (): Promise<void> => (this.controller ? Promise.resolve() : this.run(true));

  /** Aborts the load in flight and any scheduled poll. */
  stop = (): void => {
    this.clearTimer();
    this.controller?.abort();
    this.controller = null;
  };

  private set(next: Partial<LoadState<T>>) {
    this.state = { ...this.state, ...next };
    for (const l of this.listeners) l();
  }

  private clearTimer() {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(ms: number) {
    this.clearTimer();
    this.timer = this.timers.setTimeout(() => {
      this.timer = null;
      void this.run(true);
    }, ms);
  }

  private async run(quiet: boolean): Promise<void> {
    this.stop();
    const controller = new AbortController();
    this.controller = controller;
    if (!quiet && !this.state.loading) this.set({ loading: true });
    try {
      const data = await this.load(controller.signal);
      if (controller.signal.aborted) return;
      this.controller = null;
      this.set({ data, error: null, loading: false });
      const { pollMs, until } = this.opts;
      if (pollMs !== undefined && !until?.(data)) this.schedule(typeof pollMs === 'function' ? pollMs(data) : pollMs);
    } catch (e) {
      if (controller.signal.aborted || isAbortError(e)) return;
      this.controller = null;
      const error = toApiError(e);
      const first = this.state.error === null;
      this.set({ error, loading: false });
      this.opts.onError?.(error, first);
      // Keep polling through passing trouble (network, server busy), not through a refusal.
      const { pollMs } = this.opts;
      const data = this.state.data;
      const ms = typeof pollMs === 'function' ? (data !== undefined ? pollMs(data) : undefined) : pollMs;
      if (ms !== undefined && (error.status === 0 || error.status >= 500)) this.schedule(ms);
    }
  }
}
