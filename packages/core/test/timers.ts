// Test support: timers on a manual clock, for core's loaders and pollers and for hooks under a PortalProvider given
// them: nothing fires until the test fires it, and what is scheduled can be read.
import type { Timers } from '../src/timers';

export function manualTimers() {
  const due: Array<{ ms: number; fn: () => void } | null> = [];
  const timers: Timers = {
    setTimeout: (fn, ms) => due.push({ ms, fn }) - 1,
    clearTimeout: (h) => void (due[h as number] = null),
  };
  return {
    timers,
    pending: () => due.filter(Boolean).map((d) => d!.ms),
    async fire() {
      const i = due.findIndex(Boolean);
      const d = due[i]!;
      due[i] = null;
      d.fn();
      await new Promise((r) => setTimeout(r, 0));
    },
  };
}
