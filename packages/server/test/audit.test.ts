// The audit log names every create, rename, remove and restore of projects, uploads, requests and models: who, what
// and which, written with the change (a change refused writes no line).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '@portal/core';
import { call, dbKinds, fitData, signup, startServer, uploadFiles, type TestServer } from './harness';

const kinds = await dbKinds();

describe.each(kinds)('the audit log of projects, uploads, requests and models on the %s database', (kind) => {
  let srv: TestServer;
  let owner: Awaited<ReturnType<typeof signup>>;
  const lines = async (target: string): Promise<Array<[string, string, string]>> => {
    const r = await call(srv.url, 'audit', { token: owner.token, query: { client: owner.client, limit: 200 } });
    expect(r.status).toBe(200);
    return (r.body.audit.list as AuditEntry[])
      .filter((e) => e.target === target)
      .reverse()
      .map((e) => [e.action, e.actor.email, e.detail]);
  };

  beforeAll(async () => {
    srv = await startServer(kind);
    owner = await signup(srv.url, 'auditor');
  });
  afterAll(async () => {
    await srv?.close();
  });

  it('a project: created, renamed, removed and restored, each by whom; a refused rename writes nothing', async () => {
    const t = owner.token;
    const project = (await call(srv.url, 'bucketCreate', { token: t, body: { client: owner.client, name: 'Churn' } })).body.bucket.stamp;
    expect((await call(srv.url, 'bucketRename', { token: t, body: { bucket: project, name: 'Churn 2' } })).status).toBe(200);
    expect((await call(srv.url, 'bucketRename', { token: t, body: { bucket: project, name: '' } })).status).toBe(400);
    expect((await call(srv.url, 'bucketRemove', { token: t, body: { bucket: project, active: 0 } })).status).toBe(200);
    expect((await call(srv.url, 'bucketRemove', { token: t, body: { bucket: project, active: 1 } })).status).toBe(200);
    // Restoring what is already there changes nothing, so it is no line.
    expect((await call(srv.url, 'bucketRemove', { token: t, body: { bucket: project, active: 1 } })).status).toBe(200);
    expect(await lines(project)).toEqual([
      ['project.create', owner.email, 'Churn'],
      ['project.rename', owner.email, 'Churn 2'],
      ['project.remove', owner.email, 'Churn 2'],
      ['project.restore', owner.email, 'Churn 2'],
    ]);
  });

  it("an upload, a fit request and its model, and a generate request: each one's create, rename, remove and restore", async () => {
    const t = owner.token;
    const project = (await call(srv.url, 'bucketCreate', { token: t, body: { client: owner.client, name: 'Sales' } })).body.bucket.stamp;
    const { upload } = await uploadFiles(srv.url, t, project, [{ name: 'data.json', bytes: fitData() }]);
    expect(upload.flight).toBe('Ready');
    await call(srv.url, 'rendRename', { token: t, body: { rend: upload.stamp, name: 'Sales data' } });
    await call(srv.url, 'rendRemove', { token: t, body: { rend: upload.stamp, active: 0 } });
    await call(srv.url, 'rendRemove', { token: t, body: { rend: upload.stamp, active: 1 } });
    expect(await lines(upload.stamp)).toEqual([
      ['upload.create', owner.email, 'data.json'],
      ['upload.rename', owner.email, 'Sales data'],
      ['upload.remove', owner.email, 'Sales data'],
      ['upload.restore', owner.email, 'Sales data'],
    ]);

    const param = { explainability: false, input_column_size: 3, output_column_size: 2, task_target_size: 1, task: 'regression' };
    const pile = (await call(srv.url, 'pileCreate', { token: t, body: { bucket: project, variety: 'FitModel', param } })).body.pile.stamp;
    const fit = await call(srv.url, 'runCreate', {
      token: t,
      body: { bucket: project, function: 'fit', rend: upload.stamp, pile, name: 'Trained' },
    });
    expect(fit.status).toBe(200);
    const run = fit.body.run.stamp as string;
    const models = await call(srv.url, 'clientModelList', { token: t, query: { bucket: project, active: 1 } });
    const model = models.body.model.list[0].stamp as string;
    await call(srv.url, 'runRename', { token: t, body: { run, name: 'Trained 2' } });
    await call(srv.url, 'runRemove', { token: t, body: { run, active: 0 } });
    await call(srv.url, 'runRemove', { token: t, body: { run, active: 1 } });
    expect(await lines(run)).toEqual([
      ['request.create', owner.email, 'Trained'],
      ['request.rename', owner.email, 'Trained 2'],
      ['request.remove', owner.email, 'Trained 2'],
      ['request.restore', owner.email, 'Trained 2'],
    ]);
    await call(srv.url, 'modelRename', { token: t, body: { model, name: 'Churn model' } });
    await call(srv.url, 'modelRemove', { token: t, body: { model, active: 0 } });
    await call(srv.url, 'modelRemove', { token: t, body: { model, active: 1 } });
    expect(await lines(model)).toEqual([
      ['model.create', owner.email, 'Trained'],
      ['model.rename', owner.email, 'Churn model'],
      ['model.remove', owner.email, 'Churn model'],
      ['model.restore', owner.email, 'Churn model'],
    ]);

    // A generate request made with a client API key is the key's line.
    const key = (await call(srv.url, 'apikeyCreate', { token: t, body: { client: owner.client, name: 'Deploy' } })).body.apikey;
    const gen = await call(srv.url, 'runCreate', {
      token: key.token,
      body: { bucket: project, function: 'generate', rend: upload.stamp, fit: run, name: 'Embeddings' },
    });
    expect(gen.status).toBe(200);
    expect(await lines(gen.body.run.stamp)).toEqual([['request.create', `API key ${key.clue}`, 'Embeddings']]);
  });

  it('a change someone may not make writes no line in anybody’s log', async () => {
    const other = await signup(srv.url, 'intruder');
    const project = (await call(srv.url, 'bucketCreate', { token: owner.token, body: { client: owner.client, name: 'Mine' } })).body.bucket
      .stamp;
    expect((await call(srv.url, 'bucketRename', { token: other.token, body: { bucket: project, name: 'Theirs' } })).status).toBe(403);
    expect((await call(srv.url, 'bucketRemove', { token: other.token, body: { bucket: project, active: 0 } })).status).toBe(403);
    expect(await lines(project)).toEqual([['project.create', owner.email, 'Mine']]);
  });

  it('pages with limit and cursor and answers next, as every list; before is still taken for cursor', async () => {
    const t = owner.token;
    for (let i = 0; i < 5; i++) await call(srv.url, 'bucketCreate', { token: t, body: { client: owner.client, name: `Paged ${i}` } });
    const all = (await call(srv.url, 'audit', { token: t, query: { client: owner.client, limit: 200 } })).body.audit.list as AuditEntry[];
    const walk = async (param: 'cursor' | 'before') => {
      const seen: AuditEntry[] = [];
      let next: string | null = null;
      do {
        const r = await call(srv.url, 'audit', { token: t, query: { client: owner.client, limit: 2, ...(next ? { [param]: next } : {}) } });
        expect(r.status).toBe(200);
        seen.push(...(r.body.audit.list as AuditEntry[]));
        next = r.body.audit.next as string | null;
      } while (next);
      return seen;
    };
    const byCursor = await walk('cursor');
    expect(byCursor).toEqual(all);
    expect(new Set(byCursor.map((e) => JSON.stringify(e))).size).toBe(byCursor.length);
    expect(await walk('before')).toEqual(all);
    const bad = await call(srv.url, 'audit', { token: t, query: { client: owner.client, cursor: 'x' } });
    expect(bad.status).toBe(400);
  });
});
