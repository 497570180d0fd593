// Whether a store answers, remembered so a problem is logged once when it starts and once when it ends, not per probe.
import type { StorageLog } from './types';

/** Where storage messages go when the caller gives no logger (tools, tests). */
export const consoleLog: StorageLog = { info: (m) => console.log(m), error: (m) => console.error(m) };

export class StoreStatus {
  private problem: string | null | undefined;

  constructor(private readonly log: StorageLog) {}

  /** Records the outcome of a check; returns it. */
  report(problem: string | null): string | null {
    if (problem !== this.problem) {
      if (problem) this.log.error(`Storage is not ready: ${problem}`);
      else if (this.problem) this.log.info('Storage answers again.');
      this.problem = problem;
    }
    return problem;
  }

  get current(): string | null {
    return this.problem ?? null;
  }
}
