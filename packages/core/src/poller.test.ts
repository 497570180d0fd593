import { describe, expect, it } from 'vitest';
import { changeDetector, ReloadPoller, VOLATILE_FIELDS } from './poller';
import type { Timers } from './timers';

/** Timers on a manual clock: advance() fires what is due, in order. */
function fakeTimers() {
  let now = 0;
  let next = 1;
  const due = new Map<number, { at: number; fn: () => void }>();
  const timers: Timers = {
    setTimeout: (fn, ms) => (due.set(next, { at: now + ms, fn }), next++),
    clearTimeout: (h) => void due.delete(h as number),
  };
  return {
    timers,
    pending: () => [...due.values()].map((d) => d.at - now),
    async advance(ms: number) {
      const until = now + ms;
      for (;;) {
        const first = [...due.entries()].sort((a, b) => a[1].at - b[1].at)[0];
        if (!first || first[1].at > until) break;
        due.delete(first[0]);
        now = first[1].at;
        first[1].fn();
        await new Promise((r) => setTimeout(r, 0));
      }
      now = until;
    },
  };
}

describe('ReloadPoller', () => {
  it('waits 20, 40, 60, 60 s while nothing changes and 20 s again after a change', async () => {
    const clock = fakeTimers();
    const values = ['a', 'a', 'a', 'a', 'a', 'b', 'b'];
    const seen = changeDetector<string>();
    let calls = 0;
    const poller = new ReloadPoller(async () => seen(values[calls++]), { timers: clock.timers });
    await poller.reload(); // first result counts as a change
    const delays: number[] = [];
    for (let i = 0; i < 6; i++) {
      delays.push(clock.pending()[0]);
      await clock.advance(clock.pending()[0]);
    }
    expect(delays).toEqual([20_000, 40_000, 60_000, 60_000, 60_000, 20_000]);
    expect(calls).toBe(7);
    expect(poller.interval).toBe(40_000);
    poller.stop();
    expect(clock.pending()).toEqual([]);
  });

  it('reloads at once on demand and restarts the wait; stop() ends polling', async () => {
    const clock = fakeTimers();
    let calls = 0;
    const poller = new ReloadPoller(async () => (calls++, false), { timers: clock.timers });
    await poller.reload();
    expect(clock.pending()).toEqual([40_000]);
    await clock.advance(10_000);
    await poller.reload();
    expect(calls).toBe(2);
    expect(clock.pending()).toEqual([60_000]);
    poller.stop();
    await clock.advance(120_000);
    expect(calls).toBe(2);
  });

  it('keeps polling after a failed check and reports it', async () => {
    const clock = fakeTimers();
    const errors: unknown[] = [];
    const poller = new ReloadPoller(
      async () => {
        throw new Error('offline');
      },
      { timers: clock.timers, onError: (e) => errors.push(e) },
    );
    await poller.reload();
    expect(errors).toHaveLength(1);
    expect(clock.pending()).toEqual([20_000]);
    poller.stop();
  });
});

describe('changeDetector', () => {
  it('leaves volatile fields out: a billing answer with only a freshly signed portalUrl is no change', () => {
    const seen = changeDetector<unknown>(VOLATILE_FIELDS);
    const billing = (sig: string, credit = '1') => ({ creditBalance: credit, accountCentBalance: 0, portalUrl: `/pay/c?sig=${sig}` });
    expect(seen([[], billing('a')])).toBe(true);
    expect(seen([[], billing('b')])).toBe(false);
    expect(seen([[], billing('c', '2')])).toBe(true);
  });
});
