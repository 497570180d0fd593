// Undo of a removal: a remove call with active=1 puts a removed project, upload, request or model back, for members of
// its client only; a removed key stays removed (its token was revoked).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signup, startServer, type TestServer } from './harness';

describe('restoring a removed item (active=1)', () => {
  let srv: TestServer;
  let A: Awaited<ReturnType<typeof signup>>;
  let B: Awaited<ReturnType<typeof signup>>;

  beforeAll(async () => {
    srv = await startServer('embedded', { worker: false });
    A = await signup(srv.url, 'owner');
    B = await signup(srv.url, 'other');
  });
  afterAll(async () => {
    await srv?.close();
  });

  const projects = async () =>
    (
      (await call(srv.url, 'bucketList', { token: A.token, query: { client: A.client, active: 1 } })).body.bucket.list as {
        stamp: string;
      }[]
    ).map((b) => b.stamp);

  it('puts a removed project and a removed upload back for a member, and refuses anyone else', async () => {
    const project = (await call(srv.url, 'bucketCreate', { token: A.token, body: { client: A.client, name: 'Undo me' } })).body.bucket
      .stamp;
    const upload = (await call(srv.url, 'rendCreate', { token: A.token, body: { bucket: project, name: 'data' } })).body.rend.stamp;
    expect((await call(srv.url, 'rendRemove', { token: A.token, body: { rend: upload, active: 0 } })).status).toBe(200);
    expect((await call(srv.url, 'bucketRemove', { token: A.token, body: { bucket: project, active: 0 } })).status).toBe(200);
    expect(await projects()).not.toContain(project);
    // Another user cannot bring it back, nor learn that it exists.
    expect([403, 404]).toContain((await call(srv.url, 'bucketRemove', { token: B.token, body: { bucket: project, active: 1 } })).status);
    // The upload's project is removed: the upload cannot come back before it.
    expect((await call(srv.url, 'rendRemove', { token: A.token, body: { rend: upload, active: 1 } })).status).toBe(404);
    expect((await call(srv.url, 'bucketRemove', { token: A.token, body: { bucket: project, active: 1 } })).status).toBe(200);
    expect(await projects()).toContain(project);
    expect((await call(srv.url, 'rendRemove', { token: A.token, body: { rend: upload, active: 1 } })).status).toBe(200);
    const uploads = (await call(srv.url, 'rendList', { token: A.token, query: { bucket: project, active: 1 } })).body.rend.list as {
      stamp: string;
    }[];
    expect(uploads.map((r) => r.stamp)).toEqual([upload]);
    // Other calls still treat a removed item as gone.
    await call(srv.url, 'bucketRemove', { token: A.token, body: { bucket: project, active: 0 } });
    expect((await call(srv.url, 'bucketRename', { token: A.token, body: { bucket: project, name: 'x' } })).status).toBe(404);
  });

  it('does not restore a removed API key: its token stays revoked', async () => {
    const key = (await call(srv.url, 'apikeyCreate', { token: A.token, body: { client: A.client, name: 'k' } })).body.apikey.clue;
    await call(srv.url, 'apikeyRemove', { token: A.token, body: { apikey: key, active: 0 } });
    expect((await call(srv.url, 'apikeyRemove', { token: A.token, body: { apikey: key, active: 1 } })).status).toBe(404);
  });
});
