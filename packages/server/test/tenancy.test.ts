// The tenancy matrix, generated from core's route table: a second user's token against the first user's resources.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallName } from '@portal/core';
import { CALLS } from '@portal/core/contract/table';
import { call, dbKinds, fitData, mailTo, sha256, signup, startServer, uploadFiles, waitFor, type TestServer } from './harness';

const kinds = await dbKinds();

/** Calls that carry no resource id: nothing of another user's can be named through them. */
const NO_FOREIGN_ID: CallName[] = [
  'health',
  'ready',
  'login',
  'signup',
  'resetStart',
  'resetFinish',
  'refresh',
  'logout',
  'permissions',
  'generalModelList',
  // two-factor sign-in: the caller's own account only (the second step names a challenge, not a resource)
  'loginOtp',
  'otpStatus',
  'otpSetup',
  'otpEnable',
  'otpDisable',
  // sessions: the caller's own only; another user's session id answers 404 (test/sessions.test.ts)
  'sessionList',
  'sessionEnd',
  'sessionEndOthers',
  // account changes, export and deletion: the caller's own account only; the confirmation names a signed link
  // (test/account.test.ts)
  'accountShow',
  'accountEvents',
  'passwordChange',
  'emailChange',
  'emailChangeCancel',
  'emailConfirm',
  'accountExport',
  'accountDelete',
];

type Ids = Record<
  | 'client'
  | 'key'
  | 'integration'
  | 'project'
  | 'upload'
  | 'pendingUpload'
  | 'pendingFile'
  | 'pile'
  | 'shrinkPile'
  | 'pyUpload'
  | 'fit'
  | 'model'
  | 'quote'
  | 'invite'
  | 'inviteToken'
  | 'user'
  | 'webhook'
  | 'delivery',
  string
>;
type Req = { query?: Record<string, unknown>; body?: Record<string, unknown> };

/** For each call, a request naming the first user's resources (several where a call takes several ids). */
function requests(a: Ids, own: { project: string }): Record<string, Req[]> {
  return {
    apikeyList: [{ query: { client: a.client } }],
    apikeyCreate: [{ body: { client: a.client, name: 'stolen' } }],
    apikeyRename: [{ body: { apikey: a.key, name: 'stolen' } }],
    apikeyRemove: [{ body: { apikey: a.key, active: 0 } }],
    integrationList: [{ query: { client: a.client } }],
    integrationCreate: [{ body: { client: a.client, name: 'stolen', service: 'OpenAI', token: 'sk-x' } }],
    integrationRename: [{ body: { apikey: a.integration, name: 'stolen' } }],
    integrationRemove: [{ body: { apikey: a.integration, active: 0 } }],
    bucketList: [{ query: { client: a.client, active: 1 } }],
    bucketCreate: [{ body: { client: a.client, name: 'stolen' } }],
    bucketRename: [{ body: { bucket: a.project, name: 'stolen' } }],
    bucketRemove: [{ body: { bucket: a.project, active: 0 } }],
    clientModelList: [{ query: { bucket: a.project, active: 1 } }],
    modelRename: [{ body: { model: a.model, name: 'stolen' } }],
    modelRemove: [{ body: { model: a.model, active: 0 } }],
    runList: [{ query: { bucket: a.project, active: 1 } }],
    runRename: [{ body: { run: a.fit, name: 'stolen' } }],
    runRemove: [{ body: { run: a.fit, active: 0 } }],
    runStatus: [{ query: { run: a.fit } }],
    runEvents: [{ query: { run: a.fit } }, { query: { run: a.fit, after: 0 } }],
    runRerun: [{ body: { run: a.fit } }],
    clientUsage: [{ query: { client: a.client, days: 30 } }],
    rendList: [{ query: { bucket: a.project, active: 1 } }],
    rendCreate: [{ body: { bucket: a.project, name: 'stolen' } }],
    rendFinish: [{ body: { rend: a.pendingUpload } }],
    rendRename: [{ body: { rend: a.upload, name: 'stolen' } }],
    rendRemove: [{ body: { rend: a.upload, active: 0 } }],
    uploadRegister: [{ body: { rend: a.pendingUpload, name: 'x.json', file: { name: 'x.json', size: 2, checksum: sha256('[]') } } }],
    uploadFinish: [{ body: { upload: a.pendingFile } }],
    pileCreate: [{ body: { bucket: a.project, variety: 'ShrinkService', param: {} } }],
    runCreate: [
      { body: { bucket: a.project, function: 'fit', rend: a.upload, pile: a.pile, name: 'stolen' } },
      // The caller's own project with the other user's upload, parameters or model.
      { body: { bucket: own.project, function: 'fit', rend: a.upload, pile: a.pile, name: 'stolen' } },
      { body: { bucket: own.project, function: 'generate', rend: a.upload, fit: a.fit, name: 'stolen' } },
    ],
    shrinkCreate: [
      { body: { bucket: a.project, function: 'shrink', rend: a.pyUpload, pile: a.shrinkPile, name: 'stolen', desc: '' } },
      { body: { bucket: own.project, function: 'shrink', rend: a.pyUpload, pile: a.shrinkPile, name: 'stolen', desc: '' } },
    ],
    quoteStatus: [{ query: { quote: a.quote } }],
    billingStatus: [{ query: { client: a.client } }],
    memberList: [{ query: { client: a.client } }],
    inviteList: [{ query: { client: a.client } }],
    inviteCreate: [{ body: { client: a.client, email: 'stolen@example.com', role: 'owner' } }],
    inviteRemove: [{ body: { invite: a.invite } }],
    // An invitation's link carries a secret, not an id: another account than the one invited is refused.
    inviteAccept: [{ body: { token: a.inviteToken } }],
    memberRole: [{ body: { client: a.client, user: a.user, role: 'member' } }],
    memberRemove: [{ body: { client: a.client, user: a.user } }],
    audit: [{ query: { client: a.client } }],
    uploadPreview: [{ query: { upload: a.pendingFile } }, { query: { upload: a.upload } }],
    runProjection: [{ query: { run: a.fit } }],
    webhookList: [{ query: { client: a.client } }],
    webhookCreate: [{ body: { client: a.client, url: 'https://example.com/hook', events: ['run.finished'] } }],
    webhookShow: [{ query: { webhook: a.webhook } }],
    webhookUpdate: [{ body: { webhook: a.webhook, active: 0 } }],
    webhookRotate: [{ body: { webhook: a.webhook } }],
    webhookRemove: [{ body: { webhook: a.webhook } }],
    webhookTest: [{ body: { webhook: a.webhook } }],
    webhookDeliveries: [{ query: { webhook: a.webhook } }],
    webhookDelivery: [{ query: { delivery: a.delivery } }],
    webhookRedeliver: [{ body: { delivery: a.delivery } }],
    webhookListen: [{ query: { client: a.client } }],
  };
}

describe.each(kinds)('tenancy on the %s database', (kind) => {
  let srv: TestServer;
  let A: Awaited<ReturnType<typeof signup>>;
  let B: Awaited<ReturnType<typeof signup>>;
  let ids: Ids;
  let ownProject: string;

  /** Everything the first user can see, through the API. */
  const snapshot = async () => {
    const t = A.token;
    const get = async (name: CallName, query: Record<string, unknown>) => (await call(srv.url, name, { token: t, query })).body;
    return JSON.stringify({
      keys: await get('apikeyList', { client: ids.client }),
      integrations: await get('integrationList', { client: ids.client }),
      projects: await get('bucketList', { client: ids.client, active: 1 }),
      uploads: await get('rendList', { bucket: ids.project, active: 1 }),
      runs: await get('runList', { bucket: ids.project, active: 1 }),
      events: await get('runEvents', { run: ids.fit }),
      models: await get('clientModelList', { bucket: ids.project, active: 1 }),
      quote: await get('quoteStatus', { quote: ids.quote }),
      members: await get('memberList', { client: ids.client }),
      invites: await get('inviteList', { client: ids.client }),
      audit: await get('audit', { client: ids.client }),
      billing: ((b) => ({ ...b, billing: { ...b.billing, portalUrl: undefined } }))(await get('billingStatus', { client: ids.client })),
    });
  };

  beforeAll(async () => {
    srv = await startServer(kind);
    const base = srv.url;
    A = await signup(base, 'owner');
    B = await signup(base, 'intruder');
    const t = A.token;
    const key = (await call(base, 'apikeyCreate', { token: t, body: { client: A.client, name: 'k' } })).body.apikey.clue;
    const integration = (
      await call(base, 'integrationCreate', {
        token: t,
        body: { client: A.client, name: 'i', service: 'OpenAI', token: 'sk-secret-token' },
      })
    ).body.apikey.clue;
    const project = (await call(base, 'bucketCreate', { token: t, body: { client: A.client, name: 'Mine' } })).body.bucket.stamp;
    const { upload } = await uploadFiles(base, t, project, [{ name: 'd.json', bytes: fitData(20, 3) }]);
    const py = await uploadFiles(base, t, project, [
      {
        name: 'm.py',
        bytes: Buffer.from(
          'import torch.nn as nn\nclass M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.l = nn.Linear(4, 4)\n',
        ),
      },
    ]);
    const pendingUpload = (await call(base, 'rendCreate', { token: t, body: { bucket: project, name: 'pending' } })).body.rend.stamp;
    const pendingFile = (
      await call(base, 'uploadRegister', {
        token: t,
        body: { rend: pendingUpload, name: 'p.json', file: { name: 'p.json', size: 2, checksum: sha256('[]') } },
      })
    ).body.upload.stamp;
    const pile = (
      await call(base, 'pileCreate', {
        token: t,
        body: {
          bucket: project,
          variety: 'FitModel',
          param: { explainability: false, input_column_size: 3, output_column_size: 2, task_target_size: 1, task: 'regression' },
        },
      })
    ).body.pile.stamp;
    const shrinkPile = (await call(base, 'pileCreate', { token: t, body: { bucket: project, variety: 'ShrinkService', param: {} } })).body
      .pile.stamp;
    const fit = (
      await call(base, 'runCreate', { token: t, body: { bucket: project, function: 'fit', rend: upload.stamp, pile, name: 'fit' } })
    ).body.run;
    await waitFor(async () =>
      ['Finished', 'Failed'].includes((await call(base, 'runStatus', { token: t, query: { run: fit.stamp } })).body.run.record.state),
    );
    const model = (await call(base, 'clientModelList', { token: t, query: { bucket: project } })).body.model.list[0].stamp;
    const quote = (
      await call(base, 'shrinkCreate', {
        token: t,
        body: { bucket: project, function: 'shrink', rend: py.upload.stamp, pile: shrinkPile, name: 'q', desc: '' },
      })
    ).body.quote.stamp;
    await waitFor(async () => {
      const q = (await call(base, 'quoteStatus', { token: t, query: { quote } })).body.quote.run;
      return q && ['Finished', 'Failed'].includes(q.state);
    });
    const invite = (
      await call(base, 'inviteCreate', { token: t, body: { client: A.client, email: 'invited@example.com', role: 'member' } })
    ).body.invite.stamp;
    const inviteToken = decodeURIComponent(/invite\?token=(\S+)/.exec(await mailTo(srv.dataDir, 'invited@example.com'))![1]);
    const webhook = (
      await call(base, 'webhookCreate', {
        token: t,
        body: { client: A.client, url: 'https://hooks.example.com/portal', events: ['quote.paid'] },
      })
    ).body.webhook.stamp;
    const delivery = (await call(base, 'webhookTest', { token: t, body: { webhook } })).body.delivery.stamp;
    ids = {
      invite,
      inviteToken,
      user: A.user,
      client: A.client,
      key,
      integration,
      project,
      upload: upload.stamp,
      pendingUpload,
      pendingFile,
      pile,
      shrinkPile,
      pyUpload: py.upload.stamp,
      fit: fit.stamp,
      model,
      quote,
      webhook,
      delivery,
    };
    ownProject = (await call(base, 'bucketCreate', { token: B.token, body: { client: B.client, name: 'Theirs' } })).body.bucket.stamp;
  });
  afterAll(async () => {
    await srv?.close();
  });

  it('covers every call of the route table that names a resource', () => {
    const table = requests(ids, { project: ownProject });
    const named = (Object.keys(CALLS) as CallName[]).filter((n) => !NO_FOREIGN_ID.includes(n));
    expect(named.filter((n) => !table[n])).toEqual([]);
  });

  it("every call with the second user's token is 403 or 404, and the first user's data is unchanged", async () => {
    const before = await snapshot();
    const results: string[] = [];
    for (const [name, reqs] of Object.entries(requests(ids, { project: ownProject }))) {
      for (const req of reqs) {
        const r = await call(srv.url, name as CallName, { token: B.token, ...req });
        if (r.status !== 403 && r.status !== 404) results.push(`${name} ${JSON.stringify(req)} -> ${r.status} ${JSON.stringify(r.body)}`);
      }
    }
    expect(results).toEqual([]);
    expect(await snapshot()).toBe(before);
    // Nothing was created on the intruder's side either.
    expect((await call(srv.url, 'runList', { token: B.token, query: { bucket: ownProject } })).body.run.list).toEqual([]);
    expect((await call(srv.url, 'rendList', { token: B.token, query: { bucket: ownProject } })).body.rend.list).toEqual([]);
  });

  it('every call naming an unknown id is 404, for the owner too', async () => {
    const unknown = Object.fromEntries(Object.keys(ids).map((k) => [k, `x_unknown_${k}`])) as Ids;
    // The owner's own project, so calls that take several ids reach the unknown one.
    const ownProject = ids.project;
    const results: string[] = [];
    for (const [name, reqs] of Object.entries(requests(unknown, { project: ownProject }))) {
      for (const req of reqs) {
        const r = await call(srv.url, name as CallName, { token: A.token, ...req });
        // An unknown invitation secret is refused like an expired one (401), not looked up as an id.
        if (r.status !== (name === 'inviteAccept' ? 401 : 404))
          results.push(`${name} ${JSON.stringify(req)} -> ${r.status} ${JSON.stringify(r.body)}`);
      }
    }
    expect(results).toEqual([]);
  });

  it("an API key: projects of its own client only (create, rename); never another's, never keys, integrations or billing", async () => {
    const made = await call(srv.url, 'apikeyCreate', { token: B.token, body: { client: B.client, name: 'script' } });
    const key: string = made.body.apikey.token;
    expect(key).toMatch(/^pk_/);
    const before = await snapshot();
    const results: string[] = [];
    for (const [name, reqs] of Object.entries(requests(ids, { project: ownProject }))) {
      for (const req of reqs) {
        const r = await call(srv.url, name as CallName, { token: key, ...req });
        if (![401, 403, 404].includes(r.status)) results.push(`${name} ${JSON.stringify(req)} -> ${r.status}`);
      }
    }
    expect(results).toEqual([]);
    expect(await snapshot()).toBe(before);
    const created = await call(srv.url, 'bucketCreate', { token: key, body: { client: B.client, name: 'By the key' } });
    expect(created.status).toBe(200);
    const renamed = await call(srv.url, 'bucketRename', {
      token: key,
      body: { bucket: created.body.bucket.stamp, name: 'Renamed by the key' },
    });
    expect([renamed.status, renamed.body.bucket.name]).toEqual([200, 'Renamed by the key']);
    // What the Python SDK reads in its own account's projects: requests, models and the general models.
    for (const [name, req] of [
      ['runList', { query: { active: 1, bucket: created.body.bucket.stamp } }],
      ['clientModelList', { query: { active: 1, bucket: created.body.bucket.stamp } }],
      ['generalModelList', { query: { active: 1 } }],
    ] as const) {
      const r = await call(srv.url, name as CallName, { token: key, ...req });
      expect([name, r.status]).toEqual([name, 200]);
    }
    for (const [name, req] of [
      ['apikeyList', { query: { client: B.client } }],
      ['apikeyCreate', { body: { client: B.client, name: 'more' } }],
      ['integrationList', { query: { client: B.client } }],
      ['billingStatus', { query: { client: B.client } }],
      ['bucketRemove', { body: { bucket: created.body.bucket.stamp, active: 0 } }],
    ] as const) {
      const r = await call(srv.url, name as CallName, { token: key, ...req });
      expect([name, r.status, r.body.error.message]).toEqual([name, 401, 'API keys cannot make this call; sign in instead.']);
    }
    const wrong = await call(srv.url, 'bucketList', { token: 'pk_not_a_key', query: { active: 1, client: B.client } });
    expect([wrong.status, wrong.body.error.message]).toEqual([401, 'Invalid API key']);
  });

  it("the first user's own calls still work after the attempts", async () => {
    const r = await call(srv.url, 'runStatus', { token: A.token, query: { run: ids.fit } });
    expect(r.status).toBe(200);
    expect(CALLS.runStatus.response.parse(r.body).run.record.name).toBe('fit');
  });
});
