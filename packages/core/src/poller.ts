// The reload poller of the shrink file picker (SPEC section 4): 20 s, +20 s per unchanged result up to 60 s, reset on change.
import { POLL_MAX_MS, POLL_START_MS, POLL_STEP_MS } from './limits';
import { systemTimers, type TimerHandle, type Timers } from './timers';

export interface ReloadPollerOptions {
  timers?: Timers;
  startMs?: number;
  stepMs?: number;
  maxMs?: number;
  /** Called when a check throws; polling goes on at the current interval. */
  onError?: (error: unknown) => void;
}

/**
 * Runs `check` on a growing interval. `check` loads the data and resolves true when it differs
 * from the previous result (see `changeDetector`). Call `reload()` for an immediate check
 * (the reload control); it also starts the poller.
 */
export class ReloadPoller {
  private readonly timers: Timers;
  private readonly startMs: number;
  private readonly stepMs: number;
  private readonly maxMs: number;
  private readonly onError?: (error: unknown) => void;
  private handle: TimerHandle | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;
  /** The delay before the next scheduled check. */
  interval: number;

  constructor(
    private readonly check: () => Promise<boolean>,
    opts: ReloadPollerOptions = {},
  ) {
    this.timers = opts.timers ?? systemTimers;
    this.startMs = opts.startMs ?? POLL_START_MS;
    this.stepMs = opts.stepMs ?? POLL_STEP_MS;
    this.maxMs = opts.maxMs ?? POLL_MAX_MS;
    this.onError = opts.onError;
    this.interval = this.startMs;
  }

  get active(): boolean {
    return !this.stopped;
  }

  /** Checks now, then keeps polling. Concurrent calls share the check in flight. */
  reload(): Promise<void> {
    this.stopped = false;
    this.clear();
    this.running ??= this.run().finally(() => (this.running = null));
    return this.running;
  }

  /** Starts polling with the first check after the starting interval. */
  start(): void {
    this.stopped = false;
    if (this.handle === null && !this.running) this.schedule();
  }

  stop(): void {
    this.stopped = true;
    this.clear();
  }

  private clear() {
    if (this.handle !== null) this.timers.clearTimeout(this.handle);
    this.handle = null;
  }

  private schedule() {
    this.clear();
    if (this.stopped) return;
    this.handle = this.timers.setTimeout(() => {
      this.handle = null;
      void this.reload();
    }, this.interval);
  }

  private async run() {
    try {
      const changed = await this.check();
      this.interval = changed ? this.startMs : Math.min(this.maxMs, this.interval + this.stepMs);
    } catch (e) {
      this.onError?.(e);
    }
    this.schedule();
  }
}

/**
 * Remembers the last value and tells whether a new one differs (by JSON). The first value
 * counts as a change, so polling starts at the shortest interval. `ignore` names fields that differ on every
 * answer without the data changing (a signed link such as `billing.portalUrl`): they are left out of the comparison.
 */
export function changeDetector<T>(ignore: readonly string[] = []): (value: T) => boolean {
  let last: string | undefined;
  const skip = new Set(ignore);
  const replacer = skip.size ? (key: string, v: unknown) => (skip.has(key) ? undefined : v) : undefined;
  return (value: T) => {
    const next = JSON.stringify(value, replacer);
    const changed = next !== last;
    last = next;
    return changed;
  };
}

/** Fields of the shrink picker's answers that change on every call: signed links with a fresh expiry and signature. */
export const VOLATILE_FIELDS = ['portalUrl'] as const;
