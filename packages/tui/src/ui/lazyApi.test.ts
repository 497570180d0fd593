import { describe, expect, it } from 'vitest';
import { memoryTokenStore } from '@portal/core';
import { seedEmptyProject, withTestApi } from '@portal/testkit/api';
import { lazyApi } from './lazyApi';

const server = withTestApi({ worker: false });

describe("core's lazy client: a prefetched call", () => {
  it('answers the first identical call (fields in any order) without asking again; later calls ask', async () => {
    await seedEmptyProject(server, { name: 'Early' });
    const api = lazyApi({ baseUrl: server.url, tokens: memoryTokenStore(server.user.token) });
    api.prefetch('bucketList', { active: 1, client: server.user.client });
    api.prefetch('permissions');
    const [first, perms] = await Promise.all([
      api.calls.bucketList({ client: server.user.client, active: 1 }),
      api.calls.permissions(undefined),
    ]);
    expect(first.bucket.list.map((b) => b.name)).toEqual(['Early']);
    expect(perms.map((p) => p.client.stamp)).toContain(server.user.client);
    expect(server.calls.filter((c) => c === 'bucketList')).toHaveLength(1);
    expect(server.calls.filter((c) => c === 'permissions')).toHaveLength(1);
    // Used once: the next call is a fresh one, and other arguments never take a prefetched answer.
    await api.calls.bucketList({ client: server.user.client, active: 1 });
    expect(server.calls.filter((c) => c === 'bucketList')).toHaveLength(2);
  });

  it('a prefetch nobody uses fails quietly, and the call made later gets its own answer', async () => {
    server.fail('bucketList', { times: 1, status: 500 });
    const api = lazyApi({ baseUrl: server.url, tokens: memoryTokenStore(server.user.token) });
    api.prefetch('bucketList', { active: 1, client: 'c_nobody' });
    const own = await api.calls.bucketList({ active: 1, client: server.user.client });
    expect(own.bucket.list).toEqual([]);
  });
});
