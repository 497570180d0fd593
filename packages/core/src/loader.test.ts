import { describe, expect, it } from 'vitest';
import { ApiError } from './client';
import { isMissing, Loader, loadMissing, toApiError } from './loader';
import { manualTimers } from '../test/timers';

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('Loader', () => {
  it('starts loading, then holds data; polls quietly until done', async () => {
    const clock = manualTimers();
    let n = 0;
    const loader = new Loader(async () => ++n, { pollMs: 3000, until: (d) => d >= 3, timers: clock.timers });
    const states: boolean[] = [];
    loader.subscribe(() => states.push(loader.getSnapshot().loading));
    expect(loader.getSnapshot()).toEqual({ data: undefined, error: null, loading: true });
    await loader.reload();
    expect(loader.getSnapshot()).toEqual({ data: 1, error: null, loading: false });
    expect(clock.pending()).toEqual([3000]);
    await clock.fire();
    await clock.fire();
    expect(loader.getSnapshot().data).toBe(3);
    expect(clock.pending()).toEqual([]);
    // Polls never flip loading back on.
    expect(states.every((l) => l === false)).toBe(true);
  });

  it('aborts a load that a newer one replaces, and everything on stop', async () => {
    const signals: AbortSignal[] = [];
    const loader = new Loader((signal) => {
      signals.push(signal);
      return new Promise<number>((resolve) => setTimeout(() => resolve(signals.length), 20));
    });
    const first = loader.reload();
    await flush();
    const second = loader.reload();
    expect(signals[0].aborted).toBe(true);
    await Promise.all([first, second]);
    expect(loader.getSnapshot().data).toBe(2);
    void loader.reload();
    loader.stop();
    expect(signals[2].aborted).toBe(true);
  });

  it('keeps the last data on failure, reports the first failure once, and retries passing trouble', async () => {
    const clock = manualTimers();
    let fail = false;
    const reports: boolean[] = [];
    const loader = new Loader(
      async () => {
        if (fail) throw new ApiError(503, 'internal', 'busy', 'Failed to load run data.');
        return 'ok';
      },
      { pollMs: 3000, timers: clock.timers, onError: (_e, first) => reports.push(first) },
    );
    await loader.reload();
    fail = true;
    await clock.fire();
    await clock.fire();
    expect(loader.getSnapshot()).toMatchObject({ data: 'ok', loading: false, error: { display: 'Failed to load run data.' } });
    expect(reports).toEqual([true, false]);
    expect(clock.pending()).toEqual([3000]);
  });

  it('does not keep polling through a refusal', async () => {
    const clock = manualTimers();
    const loader = new Loader(
      async () => {
        throw new ApiError(404, 'not_found', 'gone', 'Failed to load run data.');
      },
      { pollMs: 3000, timers: clock.timers },
    );
    await loader.reload();
    expect(clock.pending()).toEqual([]);
  });

  it('wraps unknown failures in the one error type', () => {
    const e = toApiError(new TypeError('bad'));
    expect([e.status, e.display, e.serverMessage]).toEqual([0, 'An unexpected error occurred. Please try again.', 'bad']);
  });

  it('refreshes quietly (the rows stay, no loading state) and not while a load is in flight', async () => {
    let n = 0;
    let release: () => void = () => undefined;
    const loader = new Loader(() => new Promise<number>((r) => (release = () => r(++n))));
    const first = loader.reload();
    void loader.refresh();
    release();
    await first;
    expect(n).toBe(1);
    const loading: boolean[] = [];
    loader.subscribe(() => loading.push(loader.getSnapshot().loading));
    const again = loader.refresh();
    release();
    await again;
    expect(loader.getSnapshot().data).toBe(2);
    expect(loading).toEqual([false]);
  });
});

describe('missing', () => {
  const refused = (status: number) => new ApiError(status, 'x', null, 'Failed');
  it('is a refusal that means "not here" (404, 403), or no failure at all, never trouble', () => {
    expect([404, 403].map((s) => isMissing(refused(s)))).toEqual([true, true]);
    expect([0, 400, 409, 500].map((s) => isMissing(refused(s)))).toEqual([false, false, false, false]);
    expect(isMissing(null)).toBe(true);
  });
  it('says a load is missing only when it failed so and holds no data', () => {
    expect(loadMissing(undefined, refused(404))).toBe(true);
    expect(loadMissing(undefined, refused(403))).toBe(true);
    expect(loadMissing(undefined, refused(500))).toBe(false);
    // Still loading, or loaded before the refusal: the screen shows what it has.
    expect(loadMissing(undefined, null)).toBe(false);
    expect(loadMissing({ rows: [] }, refused(404))).toBe(false);
  });
});
