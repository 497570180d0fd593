import { describe, expect, it } from 'vitest';
import { deadline, networkReason, seconds } from './network';

describe('network', () => {
  it("names why no answer came from Node's error codes, through the chain of causes", () => {
    const refused = new TypeError('fetch failed', { cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) });
    expect(networkReason(new Error('outer', { cause: refused }))).toBe('connection refused');
    expect(networkReason(Object.assign(new Error('x'), { code: 'ENOTFOUND' }))).toBe('host not found');
    expect(networkReason(new TypeError('fetch failed'))).toBe('no connection');
  });

  it('a deadline aborts once the time is up and says so; the caller aborting is not a timeout', async () => {
    const timed = deadline(20);
    await new Promise((r) => timed.signal.addEventListener('abort', r));
    expect(timed.timedOut).toBe(true);
    const outer = new AbortController();
    const mine = deadline(10_000, outer.signal);
    outer.abort(new Error('stop'));
    expect(mine.signal.aborted).toBe(true);
    expect(mine.timedOut).toBe(false);
    mine.done();
    expect(seconds(30_000)).toBe(30);
    expect(seconds(500)).toBe(0.5);
  });
});
