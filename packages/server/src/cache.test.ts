// The project-list microcache: fresh answers from memory, one load for many misses, stale-while-refresh, writes drop entries.
import { describe, expect, it } from 'vitest';
import { ListCache } from './cache';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('ListCache', () => {
  it('serves a fresh answer from memory and shares one load between concurrent misses', async () => {
    const cache = new ListCache(1000);
    let loads = 0;
    const load = async () => {
      loads++;
      await sleep(20);
      return { client: 'c', body: `v${loads}` };
    };
    const answers = await Promise.all([cache.get('k|c|1', 'c', load), cache.get('k|c|1', 'c', load), cache.get('k|c|1', 'c', load)]);
    expect(answers).toEqual(['v1', 'v1', 'v1']);
    expect(await cache.get('k|c|1', 'c', load)).toBe('v1');
    expect(loads).toBe(1);
  });

  it('a write to the client drops its entries, and a load that raced the write is not kept', async () => {
    const cache = new ListCache(1000);
    let n = 0;
    const load = async () => ({ client: 'c', body: `v${++n}` });
    expect(await cache.get('k|c|1', 'c', load)).toBe('v1');
    cache.invalidate('c');
    expect(await cache.get('k|c|1', 'c', load)).toBe('v2');

    let release!: () => void;
    const slow = () => new Promise<{ client: string; body: string }>((r) => (release = () => r({ client: 'c', body: 'before-write' })));
    cache.invalidate('c');
    const racing = cache.get('k|c|1', 'c', slow);
    cache.invalidate('c');
    release();
    expect(await racing).toBe('before-write');
    expect(await cache.get('k|c|1', 'c', load)).toBe('v3');
  });

  it('just past its time an answer is served while one refresh runs; later it waits for a load', async () => {
    const cache = new ListCache(200);
    let n = 0;
    const load = async () => {
      await sleep(5);
      return { client: 'c', body: `v${++n}` };
    };
    expect(await cache.get('k|c|1', 'c', load)).toBe('v1');
    await sleep(280);
    expect(await cache.get('k|c|1', 'c', load)).toBe('v1');
    await sleep(50);
    expect(await cache.get('k|c|1', 'c', load)).toBe('v2');
    await sleep(500);
    expect(await cache.get('k|c|1', 'c', load)).toBe('v3');
  });

  it('with a TTL of 0 every call loads', async () => {
    const cache = new ListCache(0);
    let n = 0;
    const load = async () => ({ client: 'c', body: `v${++n}` });
    await cache.get('k|c|1', 'c', load);
    expect(await cache.get('k|c|1', 'c', load)).toBe('v2');
  });
});
