import { describe, expect, it } from 'vitest';
import { withTestApi } from '@portal/testkit/api';
import { CALLS } from '@portal/core/contract/table';
import { PlainHeaders, plainFetch } from '@portal/core/node';

describe('plainFetch against the real server', { timeout: 30_000 }, () => {
  const api = withTestApi({ worker: false });

  it('sends a JSON call with its headers and reads status, headers and body', async () => {
    const res = await plainFetch(new URL(CALLS.bucketCreate.path, api.url), {
      method: CALLS.bucketCreate.method,
      headers: new PlainHeaders({ authorization: `Bearer ${api.user.token}`, 'content-type': 'application/json' }),
      body: JSON.stringify({ client: api.user.client, name: 'Über project' }),
    });
    expect([res.status, res.ok]).toEqual([200, true]);
    expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(((await res.json()) as { bucket: { name: string } }).bucket.name).toBe('Über project');
    const refused = await plainFetch(new URL(`${CALLS.runList.path}?bucket=nope&active=1`, api.url), {
      headers: { authorization: `Bearer ${api.user.token}` },
    });
    expect([refused.status, refused.ok]).toEqual([404, false]);
    expect(JSON.parse(await refused.text()).error.code).toBeTruthy();
  });

  it('rejects with the abort when cancelled while the server holds the request', async () => {
    api.storageDelayMs = 5_000;
    const stop = new AbortController();
    const pending = plainFetch(new URL('/api/storage/upload-x', api.url), { method: 'PUT', body: 'bytes', signal: stop.signal });
    setTimeout(() => stop.abort(), 50);
    const err = await pending.catch((e) => e);
    expect(err.name).toBe('AbortError');
  });

  it('rejects with a TypeError when nothing listens', async () => {
    const err = await plainFetch('http://127.0.0.1:9/api/health').catch((e) => e);
    expect(err).toBeInstanceOf(TypeError);
    expect(err.cause.code).toBe('ECONNREFUSED');
  });
});
