import { afterEach, describe, expect, it } from 'vitest';
import { jwt, make, startServer, type TestServer } from '../../test/server';
import { ApiClient } from './api';
import { callTable } from '../contract/table';
import { memoryTokenStore } from './token';

// Answers the real server never gives (the permission list as a bare array, a body outside the contract, a token on a
// failed answer): a scripted server stands in for them.
describe('answers the server never gives', () => {
  const NOW_S = 1_800_000_000;
  const scripted: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(scripted.splice(0).map((s) => s.close()));
  });
  const client = make.client({ stamp: 'c1' });
  async function scriptedClient(routes: Parameters<typeof startServer>[0]) {
    const s = await startServer(routes);
    scripted.push(s);
    const tokens = memoryTokenStore(jwt(NOW_S + 7200));
    return { api: new ApiClient({ calls: callTable, baseUrl: s.url, tokens, clock: { now: () => NOW_S * 1000 } }), tokens };
  }

  it('reads the permission list as an array too', async () => {
    const entry = { client, createdAt: 1 };
    const { api } = await scriptedClient({ 'GET /api/user/permission': () => ({ json: [entry] }) });
    expect(await api.calls.permissions()).toEqual([entry]);
  });

  it('a token in any response replaces the stored one, even on a failed call', async () => {
    const later = jwt(NOW_S + 48 * 3600, { n: 'rotated' });
    const { api, tokens } = await scriptedClient({
      'GET /api/bucket/item': () => ({ json: { client: { list: [client] }, bucket: { list: [] }, token: later } }),
      'POST /api/bucket/name': () => ({ status: 500, json: { error: { code: 'internal', message: 'x' }, token: 'after-failure' } }),
    });
    await api.calls.bucketList({ client: 'c1' });
    expect(tokens.get()).toBe(later);
    await api.calls.bucketRename({ bucket: 'b1', name: 'N' }).catch(() => {});
    expect(tokens.get()).toBe('after-failure');
  });

  it('a response that breaks the contract is an error, not a crash', async () => {
    const { api } = await scriptedClient({ 'GET /api/run/item': () => ({ json: { run: 'nope' } }) });
    const err = await api.calls.runList({ bucket: 'b1' }).catch((e) => e);
    expect(err.code).toBe('bad_response');
    expect(err.display).toBe('Failed to load requests');
    expect(err.serverMessage).toBe('Unexpected response at client: Invalid input: expected object, received undefined');
  });
});
