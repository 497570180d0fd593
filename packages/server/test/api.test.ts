// Every call of the route table over HTTP against the real app, on the embedded database and on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { ERROR_CODES, MESSAGES, PLAN_LIMITS, STORAGE_PATH_PREFIX, maskToken, type CallName, type CallResponse } from '@portal/core';
import { CALLS } from '@portal/core/contract/table';
import {
  call,
  createPgDatabase,
  dbKinds,
  fitData,
  mailTo,
  PASSWORD,
  resetStartWithHost,
  sha256,
  signup,
  startServer,
  uploadFiles,
  testSecret,
  waitFor,
  type TestServer,
} from './harness';
import { buildApp, type BuiltApp } from '../src/app';
import { loadConfig } from '../src/config';
import { Tokens } from '../src/auth/tokens';
import { setPlan } from '../src/admin';
import { EMAIL_TAKEN, USERNAME_TAKEN } from '../src/routes/user';
import { UNREADABLE_TOKEN } from '../src/routes/keys';
import { Secrets } from '../src/auth/secrets';

const kinds = await dbKinds();
const parse = <N extends CallName>(name: N, body: unknown): CallResponse<N> => CALLS[name].response.parse(body) as CallResponse<N>;
const basic = (email: string, password: string) => `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;
const PY_MODEL = Buffer.from(
  'import torch.nn as nn\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc1 = nn.Linear(10, 20)\n        self.fc2 = nn.Linear(20, 2)\n',
);

describe.each(kinds)('API on the %s database', (kind) => {
  let srv: TestServer;
  let base: string;
  let A: Awaited<ReturnType<typeof signup>>;

  beforeAll(async () => {
    srv = await startServer(kind);
    base = srv.url;
    A = await signup(base, 'alice');
  });
  afterAll(async () => {
    await srv?.close();
  });
  /** A call's answer, read through its response schema in the contract (so typed as the call's response). */
  const answer = async <N extends CallName>(name: N, opts: Parameters<typeof call>[2]) => parse(name, (await call(base, name, opts)).body);

  describe('every signed-in call refuses missing, expired and tampered tokens', () => {
    const bearer = Object.entries(CALLS).filter(([, d]) => d.auth === 'bearer') as Array<[CallName, (typeof CALLS)[CallName]]>;
    it.each(bearer)('%s', async (name) => {
      const noToken = await call(base, name, { body: {}, query: {} });
      expect(noToken.status).toBe(401);
      expect(noToken.body.error).toEqual({ code: ERROR_CODES.tokenMissing, message: MESSAGES.tokenMissing });

      const expired = await srv.built.services.sessions.start({ sub: A.user, email: A.email, username: A.username }, -60);
      const exp = await call(base, name, { body: {}, query: {}, token: expired });
      expect(exp.status).toBe(401);
      expect(exp.body.error).toEqual({ code: ERROR_CODES.tokenExpired, message: MESSAGES.tokenExpired });

      const sig = A.token.slice(-6);
      const tampered = A.token.slice(0, -6) + (sig === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA');
      const bad = await call(base, name, { body: {}, query: {}, token: tampered });
      expect(bad.status).toBe(401);
      expect(bad.body.error.code).toBe(ERROR_CODES.unauthorized);

      // A token signed with another secret is refused the same way.
      const foreign = await new Tokens(new Secrets('another-secret')).session(
        { sub: A.user, email: A.email, username: A.username, sid: 's_x' },
        Math.floor(Date.now() / 1000) + 3600,
      );
      expect((await call(base, name, { body: {}, query: {}, token: foreign })).status).toBe(401);
    });
  });

  describe('every call with a schema refuses an empty request with 400 naming the problem', () => {
    const withSchema = (Object.keys(CALLS) as CallName[]).filter((n) => {
      const d = CALLS[n] as {
        query?: { safeParse(v: unknown): { success: boolean } };
        body?: { safeParse(v: unknown): { success: boolean } };
        auth: string;
      };
      const schema = d.query ?? d.body;
      return schema && d.auth !== 'reset' && !schema.safeParse({}).success;
    });
    it.each(withSchema)('%s', async (name) => {
      const r = await call(base, name, { token: A.token, body: {}, query: {} });
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe(ERROR_CODES.invalid);
      expect(r.body.error.message.length).toBeGreaterThan(5);
    });
  });

  it("a refused request's 400 names the field with zod's English message, or passes SPEC's message through", async () => {
    const hex = 'a'.repeat(64);
    const file = { checksum: hex, name: 'data.json', size: 3 };
    const fit = { explainability: false, input_column_size: 4, output_column_size: 2, task_target_size: 1, task: 'classification' };
    // Each case breaks one field of a body that is otherwise good.
    const withFile = (f: object) => ({ body: { rend: 'u1', name: 'data.json', file: { ...file, ...f } } });
    const fitPile = (p: object) => ({ body: { bucket: 'b1', variety: 'FitModel', param: { ...fit, ...p } } });
    const request = (fn: string, more = {}) => ({ body: { bucket: 'b1', function: fn, rend: 'u1', pile: 'p1', name: 'x', ...more } });
    const integration = (more: object) => ({ body: { client: A.client, name: 'LLM', service: 'OpenAI', token: 'x', ...more } });
    const cases: Array<[CallName, { query?: Record<string, unknown>; body?: unknown }, string]> = [
      ['bucketCreate', { body: {} }, 'client: Invalid input: expected string, received undefined'],
      ['bucketCreate', { body: { client: 5, name: 'x' } }, 'client: Invalid input: expected string, received number'],
      ['bucketCreate', { body: { client: '', name: 'x' } }, 'client: Too small: expected string to have >=1 characters'],
      ['bucketCreate', { body: { client: 'c'.repeat(65), name: 'x' } }, 'client: Too big: expected string to have <=64 characters'],
      ['bucketCreate', { body: { client: A.client, name: '   ' } }, MESSAGES.titleCreate],
      ['bucketCreate', { body: [1] }, 'Invalid input: expected object, received array'],
      ['bucketRemove', { body: { bucket: 'b1', active: 2 } }, 'active: Invalid input'],
      ['bucketList', { query: { client: A.client, active: 'abc' } }, 'active: Invalid input: expected number, received NaN'],
      ['bucketList', { query: { client: A.client, active: '1.5' } }, 'active: Invalid input: expected int, received number'],
      ['bucketList', { query: {} }, 'client: Invalid input: expected string, received undefined'],
      ['integrationCreate', integration({ service: 'Other' }), 'service: Invalid input: expected "OpenAI"'],
      ['integrationCreate', integration({ token: '' }), MESSAGES.integrationToken],
      ['uploadRegister', { body: { rend: 'u1', name: 'n'.repeat(256), file } }, 'name: Too big: expected string to have <=255 characters'],
      ['uploadRegister', withFile({ size: -1 }), 'file.size: Too small: expected number to be >=0'],
      ['uploadRegister', withFile({ size: 1.5 }), 'file.size: Invalid input: expected int, received number'],
      ['uploadRegister', withFile({ checksum: 'not-hex' }), 'file.checksum: file.checksum must be a SHA-256 in hex'],
      ['uploadRegister', { body: { rend: 'u1', name: 'data.json' } }, 'file: Invalid input: expected object, received undefined'],
      ['pileCreate', { body: { bucket: 'b1', variety: 'FitModel' } }, 'param: Invalid input: expected object, received undefined'],
      [
        'pileCreate',
        { body: { bucket: 'b1', variety: 'Other', param: {} } },
        "variety: Invalid discriminator value. Expected 'FitModel' | 'ShrinkService'",
      ],
      ['pileCreate', fitPile({ input_column_size: 1.5 }), 'param.input_column_size: Invalid input: expected int, received number'],
      ['pileCreate', fitPile({ task: 'Guess' }), 'param.task: Invalid option: expected one of "regression"|"classification"'],
      ['runCreate', request('shrink'), "function: Invalid discriminator value. Expected 'fit' | 'generate'"],
      ['shrinkCreate', request('fit'), 'function: Invalid input: expected "shrink"'],
      ['shrinkCreate', request('shrink', { desc: 'd'.repeat(5000) }), MESSAGES.description],
      ['apikeyRename', { body: { apikey: 'k1', name: 'x'.repeat(61) } }, MESSAGES.titleRename],
      ['resetStart', { body: { email: '' } }, MESSAGES.email],
      ['signup', { body: { email: 'x@y.co' } }, 'username: Invalid input: expected string, received undefined'],
    ];
    for (const [name, req, message] of cases) {
      const r = await call(base, name, { token: A.token, ...req });
      expect([name, r.status, r.body.error]).toEqual([name, 400, { code: ERROR_CODES.invalid, message }]);
    }
  });

  it('health answers without a token, with security headers', async () => {
    const r = await call(base, 'health');
    expect(r.status).toBe(200);
    parse('health', r.body);
    expect(r.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('x-frame-options')).toBe('DENY');
  });

  it('sign-up creates a user and an Individual, Cloud client named after the company; duplicates are 409', async () => {
    const r = await call(base, 'signup', {
      body: { email: 'Bob.Builder@example.com', username: `bob_${kind}`, password: PASSWORD, name: 'Builders Ltd' },
    });
    expect(r.status).toBe(200);
    const body = parse('signup', r.body);
    expect(body.login.client.list).toEqual([
      expect.objectContaining({ name: 'Builders Ltd', plan: 'Individual', choice: 'Cloud', active: 1 }),
    ]);
    expect(body.token.split('.')).toHaveLength(3);

    const sameEmail = await call(base, 'signup', {
      body: { email: 'bob.builder@EXAMPLE.com', username: `bob2_${kind}`, password: PASSWORD, name: 'Builders Ltd' },
    });
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body.error.message).toBe(EMAIL_TAKEN);
    const sameName = await call(base, 'signup', {
      body: { email: 'other@example.com', username: `BOB_${kind}`, password: PASSWORD, name: 'Builders Ltd' },
    });
    expect(sameName.status).toBe(409);
    expect(sameName.body.error.message).toBe(USERNAME_TAKEN);

    const cases: Array<[Record<string, unknown>, string]> = [
      [{ email: 'nope', username: 'valid_name', password: PASSWORD, name: 'Company' }, MESSAGES.email],
      [{ email: 'x@y.co', username: 'a b', password: PASSWORD, name: 'Company' }, MESSAGES.username],
      [{ email: 'x@y.co', username: 'valid_name', password: 'short', name: 'Company' }, MESSAGES.password],
      [{ email: 'x@y.co', username: 'valid_name', password: PASSWORD, name: 'Co' }, MESSAGES.companyName],
    ];
    for (const [body, message] of cases) {
      const bad = await call(base, 'signup', { body });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toEqual({ code: ERROR_CODES.invalid, message });
    }
    const missing = await call(base, 'signup', { body: { email: 'x@y.co' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/username/);
  });

  it('login by Basic auth; wrong password, unknown email and no header are 401 Invalid credentials', async () => {
    const ok = await call(base, 'login', { headers: { authorization: basic(A.email.toUpperCase(), PASSWORD) } });
    expect(ok.status).toBe(200);
    expect(parse('signup', ok.body).login.client.list[0].stamp).toBe(A.client);
    for (const headers of [
      { authorization: basic(A.email, 'Wrong-pass1!') },
      { authorization: basic('nobody@example.com', PASSWORD) },
      {} as Record<string, string>,
    ]) {
      const r = await call(base, 'login', { headers });
      expect(r.status).toBe(401);
      expect(r.body.error.message).toBe(MESSAGES.invalidCredentials);
    }
  });

  it('refresh gives a new session token; permissions list the client', async () => {
    const r = await call(base, 'refresh', { token: A.token });
    expect(r.status).toBe(200);
    const { token } = parse('refresh', r.body);
    const perms = await call(base, 'permissions', { token });
    expect(perms.status).toBe(200);
    const list = parse('permissions', perms.body);
    expect(list.map((p) => p.client.stamp)).toEqual([A.client]);
  });

  it('password reset: mail in the outbox, single use, reset and session tokens never swap', async () => {
    const U = await signup(base, 'reset');
    const unknown = await call(base, 'resetStart', { body: { email: 'nobody-here@example.com' } });
    const known = await call(base, 'resetStart', { body: { email: U.email } });
    expect(unknown.status).toBe(200);
    expect(known.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    expect((await call(base, 'resetStart', { body: {} })).status).toBe(400);

    const mail = await mailTo(srv.dataDir, U.email);
    const token = decodeURIComponent(/reset-password\?token=(\S+)/.exec(mail)![1]);

    // A reset token is not a session token, and a session token cannot reset.
    expect((await call(base, 'bucketList', { token, query: { client: U.client } })).status).toBe(401);
    expect((await call(base, 'resetFinish', { token: U.token, body: { password: 'N3w-password!' } })).status).toBe(401);
    expect((await call(base, 'resetFinish', { body: { password: 'N3w-password!' } })).body.error.message).toBe(MESSAGES.tokenMissing);

    const weak = await call(base, 'resetFinish', { token, body: { password: 'weak' } });
    expect(weak.status).toBe(400);
    expect(weak.body.error.message).toBe(MESSAGES.password);
    const done = await call(base, 'resetFinish', { token, body: { password: 'N3w-password!' } });
    expect(done.status).toBe(200);
    parse('resetFinish', done.body);
    const again = await call(base, 'resetFinish', { token, body: { password: 'An0ther-pass!' } });
    expect(again.status).toBe(401);
    expect(again.body.error.message).toBe(MESSAGES.invalidCredentials);

    expect((await call(base, 'login', { headers: { authorization: basic(U.email, PASSWORD) } })).status).toBe(401);
    expect((await call(base, 'login', { headers: { authorization: basic(U.email, 'N3w-password!') } })).status).toBe(200);
  });

  it('a forged Host header never decides where a reset link points', async () => {
    const U = await signup(base, 'forged');
    expect((await resetStartWithHost(srv, U.email, 'evil.example')).statusCode).toBe(200);
    const mail = await mailTo(srv.dataDir, U.email);
    expect(mail).not.toContain('evil.example');
    expect(mail).toMatch(/http:\/\/localhost:\d+\/reset-password\?token=/);
  });

  it('a generate request whose model fails to train fails too, with a sentence', async () => {
    const project = (await answer('bucketCreate', { token: A.token, body: { client: A.client, name: 'Doomed' } })).bucket;
    // Two numbers per row, while the parameters ask for three inputs and a target: training cannot work.
    const { upload } = await uploadFiles(base, A.token, project.stamp, [{ name: 'narrow.json', bytes: fitData(20, 1) }]);
    const pile = (
      await answer('pileCreate', {
        token: A.token,
        body: {
          bucket: project.stamp,
          variety: 'FitModel',
          param: { explainability: false, input_column_size: 3, output_column_size: 2, task_target_size: 1, task: 'regression' },
        },
      })
    ).pile;
    const fit = (
      await answer('runCreate', {
        token: A.token,
        body: { bucket: project.stamp, function: 'fit', rend: upload.stamp, pile: pile.stamp, name: 'Doomed fit' },
      })
    ).run;
    const gen = (
      await answer('runCreate', {
        token: A.token,
        body: { bucket: project.stamp, function: 'generate', rend: upload.stamp, fit: fit.stamp, name: 'Doomed embed' },
      })
    ).run;
    const final = (id: string) =>
      waitFor(async () => {
        const r = await answer('runStatus', { token: A.token, query: { run: id } });
        return ['Finished', 'Failed'].includes(r.run.record.state) ? r.run : null;
      });
    const f = await final(fit.stamp);
    const g = await final(gen.stamp);
    expect(f.record.state).toBe('Failed');
    expect(f.record.message).toMatch(/\.$/);
    expect(f.url).toBeNull();
    expect(g.record.state).toBe('Failed');
    expect(g.record.message).toMatch(/^The model this request uses failed to train/);
    const models = await answer('clientModelList', { token: A.token, query: { bucket: project.stamp } });
    expect(models.model.list[0]).toMatchObject({ state: 'Failed', message: f.record.message });
    // Once the fit is known to have failed, a new generate request is refused at once.
    const again = await call(base, 'runCreate', {
      token: A.token,
      body: { bucket: project.stamp, function: 'generate', rend: upload.stamp, fit: fit.stamp, name: 'Again' },
    });
    expect(again.status).toBe(409);
  });

  it('client API keys: create, list, rename, remove; validation; unknown ids', async () => {
    const created = await call(base, 'apikeyCreate', { token: A.token, body: { client: A.client, name: 'CI key' } });
    expect(created.status).toBe(200);
    const key = parse('apikeyCreate', created.body).apikey;
    expect(key).toMatchObject({ name: 'CI key', installs: 0, installedAt: null, active: 1 });
    expect(key.token).toMatch(/^pk_/);
    expect(key.pack.linux64).toBe(`${key.clue}/${key.pack.linux64.split('/')[1]}/portal_client-0.2.0-py3-none-any.whl`);
    expect(key.pack.linux64.split('/')[1].length).toBeGreaterThanOrEqual(32);

    const list = await answer('apikeyList', { token: A.token, query: { client: A.client } });
    expect(list.apikey.list.map((k) => [k.clue, k.token])).toEqual([[key.clue, key.token]]);
    expect(list.client.list[0].stamp).toBe(A.client);

    const renamed = await call(base, 'apikeyRename', { token: A.token, body: { apikey: key.clue, name: '  Deploy key ' } });
    expect(parse('apikeyRename', renamed.body).apikey.name).toBe('Deploy key');
    const badName = await call(base, 'apikeyRename', { token: A.token, body: { apikey: key.clue, name: '   ' } });
    expect(badName.body.error.message).toBe(MESSAGES.titleRename);
    const badCreate = await call(base, 'apikeyCreate', { token: A.token, body: { client: A.client, name: 'x'.repeat(61) } });
    expect(badCreate.status).toBe(400);
    expect(badCreate.body.error.message).toBe(MESSAGES.titleCreate);
    expect((await call(base, 'apikeyCreate', { token: A.token, body: { client: 'c_nope', name: 'k' } })).status).toBe(404);
    expect((await call(base, 'apikeyRename', { token: A.token, body: { apikey: 'k_nope', name: 'k' } })).status).toBe(404);
    expect((await call(base, 'apikeyList', { token: A.token, query: {} })).status).toBe(400);

    // The installer download counts an install of that key.
    const pack = await fetch(new URL(`/api/pack/${key.pack.linux64}`, base));
    expect(pack.status).toBe(200);
    const wheel = Buffer.from(await pack.arrayBuffer());
    expect(wheel.subarray(0, 2).toString()).toBe('PK');
    const after = (await answer('apikeyList', { token: A.token, query: { client: A.client } })).apikey.list[0];
    expect(after.installs).toBe(1);
    expect(after.installedAt).toBeGreaterThan(0);
    expect((await fetch(new URL('/api/pack/portal_client-0.1.0-py3-none-any.whl?key=k_nope', base))).status).toBe(404);
    // Without the key's install secret (the old form, a wrong secret, HEAD) nothing is served or counted.
    const wheelName = key.pack.linux64.split('/').pop()!;
    const old = await fetch(new URL(`/api/pack/${wheelName}?key=${key.clue}`, base));
    expect([old.status, (await old.json()).error.message]).toEqual([
      404,
      "This installer link is out of date: copy the pip command from the key's page again.",
    ]);
    expect((await fetch(new URL(`/api/pack/${key.clue}/${'x'.repeat(32)}/${wheelName}`, base))).status).toBe(404);
    expect((await fetch(new URL(`/api/pack/${key.clue}//${wheelName}`, base))).status).toBe(404);
    // A pip command copied before the client's version changed: the link says it is out of date.
    const older = await fetch(
      new URL(key.pack.linux64.replace(wheelName, 'portal_client-0.1.0-py3-none-any.whl'), new URL('/api/pack/', base)),
    );
    expect([older.status, (await older.json()).error.message]).toEqual([
      404,
      "This installer link is out of date: copy the pip command from the key's page again.",
    ]);
    expect((await fetch(new URL(`/api/pack/${key.pack.linux64}`, base), { method: 'HEAD' })).status).toBe(200);
    expect((await answer('apikeyList', { token: A.token, query: { client: A.client } })).apikey.list[0].installs).toBe(1);

    // Stored under another secret (JWT_SECRET changed): listed as unreadable, not a failure.
    const enc = (
      await srv.built.services.db.selectFrom('apikeys').select('token_enc').where('clue', '=', key.clue).executeTakeFirstOrThrow()
    ).token_enc;
    await srv.built.services.db
      .updateTable('apikeys')
      .set({ token_enc: new Secrets('old-secret').encrypt('pk_old') })
      .where('clue', '=', key.clue)
      .execute();
    const unreadable = (await answer('apikeyList', { token: A.token, query: { client: A.client } })).apikey.list[0];
    expect(unreadable.token).toBe(UNREADABLE_TOKEN);
    await srv.built.services.db.updateTable('apikeys').set({ token_enc: enc }).where('clue', '=', key.clue).execute();

    const removed = await call(base, 'apikeyRemove', { token: A.token, body: { apikey: key.clue, active: 0 } });
    expect(parse('apikeyRemove', removed.body)).toEqual({ ok: true });
    expect((await answer('apikeyList', { token: A.token, query: { client: A.client } })).apikey.list).toEqual([]);
    expect((await call(base, 'apikeyRemove', { token: A.token, body: { apikey: key.clue, active: 0 } })).status).toBe(404);
    expect((await call(base, 'apikeyRemove', { token: A.token, body: { apikey: key.clue, active: 2 } })).status).toBe(400);
    // A removed key no longer authenticates.
    expect((await call(base, 'bucketList', { token: key.token, query: { client: A.client } })).status).toBe(401);
  });

  it('integration keys: token encrypted at rest and masked in lists', async () => {
    const secret = 'sk-' + 'abcdef0123456789'.repeat(8);
    const created = await call(base, 'integrationCreate', {
      token: A.token,
      body: { client: A.client, name: 'LLM', service: 'OpenAI', token: secret },
    });
    expect(created.status).toBe(200);
    const key = parse('integrationCreate', created.body).apikey;
    expect(key.token).toBe(maskToken(secret));
    expect(key).toMatchObject({ service: 'OpenAI', runs: 0, runAt: null });
    const list = await answer('integrationList', { token: A.token, query: { client: A.client } });
    expect(list.apikey.list.map((k) => k.token)).toEqual([maskToken(secret)]);
    const row = await srv.built.services.db
      .selectFrom('integrations')
      .select('token_enc')
      .where('clue', '=', key.clue)
      .executeTakeFirstOrThrow();
    expect(row.token_enc).not.toContain(secret.slice(3, 20));

    const badToken = await call(base, 'integrationCreate', {
      token: A.token,
      body: { client: A.client, name: 'LLM', service: 'OpenAI', token: '' },
    });
    expect(badToken.body.error.message).toBe(MESSAGES.integrationToken);
    expect(
      (await call(base, 'integrationCreate', { token: A.token, body: { client: A.client, name: 'LLM', service: 'Other', token: 'x' } }))
        .status,
    ).toBe(400);
    const renamed = await call(base, 'integrationRename', { token: A.token, body: { apikey: key.clue, name: 'Language model' } });
    expect(parse('integrationRename', renamed.body).apikey).toMatchObject({ name: 'Language model', token: maskToken(secret) });
    expect((await call(base, 'integrationRename', { token: A.token, body: { apikey: 'i_nope', name: 'x' } })).body.error.message).toBe(
      MESSAGES.integrationNotFound,
    );
    expect(await answer('integrationRemove', { token: A.token, body: { apikey: key.clue, active: 0 } })).toEqual({ ok: true });
    expect((await answer('integrationList', { token: A.token, query: { client: A.client } })).apikey.list).toEqual([]);
  });

  it('projects: create, list with counts, rename, remove hides it everywhere', async () => {
    const created = await call(base, 'bucketCreate', { token: A.token, body: { client: A.client, name: 'Churn' } });
    const project = parse('bucketCreate', created.body).bucket;
    expect(project).toMatchObject({ name: 'Churn', runs: 0, rends: 0 });
    const list = await answer('bucketList', { token: A.token, query: { client: A.client, active: 1 } });
    expect(list.bucket.list.map((b) => b.stamp)).toContain(project.stamp);
    const renamed = await answer('bucketRename', { token: A.token, body: { bucket: project.stamp, name: 'Churn 2' } });
    expect(renamed.bucket.name).toBe('Churn 2');
    expect((await call(base, 'bucketCreate', { token: A.token, body: { client: A.client, name: '' } })).body.error.message).toBe(
      MESSAGES.titleCreate,
    );
    expect((await call(base, 'bucketRename', { token: A.token, body: { bucket: 'b_nope', name: 'x' } })).status).toBe(404);
    expect((await call(base, 'bucketList', { token: A.token, query: { client: A.client, active: 'abc' } })).status).toBe(400);

    await call(base, 'rendCreate', { token: A.token, body: { bucket: project.stamp, name: 'data.json' } });
    const counted = (await answer('bucketList', { token: A.token, query: { client: A.client } })).bucket.list.find(
      (b) => b.stamp === project.stamp,
    );
    expect(counted?.rends).toBe(1);
    // Names are user text: quotes, backslashes and non-ASCII come back exactly (control characters are refused).
    const odd = 'Q"uo\\te\u00e9\u{1F600} </script>';
    const oddProject = (await answer('bucketCreate', { token: A.token, body: { client: A.client, name: odd } })).bucket;
    const oddListed = (await answer('bucketList', { token: A.token, query: { client: A.client } })).bucket.list.find(
      (b) => b.stamp === oddProject.stamp,
    );
    expect(oddListed).toEqual({ stamp: oddProject.stamp, name: odd, runs: 0, rends: 0, createdAt: oddProject.createdAt });

    expect(await answer('bucketRemove', { token: A.token, body: { bucket: project.stamp, active: 0 } })).toEqual({ ok: true });
    const after = await answer('bucketList', { token: A.token, query: { client: A.client, active: 1 } });
    expect(after.bucket.list.map((b) => b.stamp)).not.toContain(project.stamp);
    expect((await call(base, 'rendList', { token: A.token, query: { bucket: project.stamp } })).status).toBe(404);
    expect((await call(base, 'runList', { token: A.token, query: { bucket: project.stamp } })).status).toBe(404);
  });

  it('rows made in the same second list in the order they were made (projects, upload groups, their files)', async () => {
    const B = await signup(base, 'order');
    const names = Array.from({ length: 8 }, (_, i) => `P${i}`);
    const projects = [];
    for (const name of names) projects.push((await answer('bucketCreate', { token: B.token, body: { client: B.client, name } })).bucket);
    const listed = (await answer('bucketList', { token: B.token, query: { client: B.client, active: 1 } })).bucket.list;
    expect(listed.map((b) => b.name)).toEqual(names);
    // Upload groups list newest first; the files of one group in the order they were registered.
    const project = projects[0].stamp;
    const uploads = [];
    for (const name of names) uploads.push((await answer('rendCreate', { token: B.token, body: { bucket: project, name } })).rend);
    const files = names.map((n) => `${n}.json`);
    for (const name of files) {
      await call(base, 'uploadRegister', {
        token: B.token,
        body: { rend: uploads[0].stamp, name, file: { name, size: 2, checksum: sha256('[]') } },
      });
    }
    const groups = (await answer('rendList', { token: B.token, query: { bucket: project, active: 1 } })).rend.list;
    expect(groups.map((r) => r.name)).toEqual([...names].reverse());
    expect(groups.at(-1)!.upload.list.map((u) => u.name)).toEqual(files);
  });

  it('uploads: register, signed PUT, finish; analysis; group Ready; refusals leave nothing behind', async () => {
    const project = (await answer('bucketCreate', { token: A.token, body: { client: A.client, name: 'Uploads' } })).bucket;
    const data = fitData(30, 3);
    const { upload, items } = await uploadFiles(base, A.token, project.stamp, [{ name: 'train.json', bytes: data }]);
    expect(upload.flight).toBe('Ready');
    const item = upload.upload.list[0];
    expect(item).toMatchObject({
      stamp: items[0],
      state: 'Finished',
      file: { name: 'train.json', size: data.length, checksum: sha256(data) },
    });
    expect(item.meta).toMatchObject({ proc: 1, rows: 30, cols: 4 });
    const list = await answer('rendList', { token: A.token, query: { bucket: project.stamp, active: 1 } });
    expect(list.rend.list).toHaveLength(1);

    const r2 = (await answer('rendCreate', { token: A.token, body: { bucket: project.stamp, name: 'more' } })).rend;
    expect(r2.flight).toBe('Pending');
    const reg = (file: { name: string; size: number; checksum: string }) =>
      call(base, 'uploadRegister', { token: A.token, body: { rend: r2.stamp, name: file.name, file } });
    const badExt = await reg({ name: 'evil.exe', size: 3, checksum: sha256('abc') });
    expect(badExt.status).toBe(400);
    expect(badExt.body.error.message).toBe(
      MESSAGES.invalidFileType(['.json', '.npy', '.npz', '.pkl', '.pickle', '.sav', '.py', '.pt', '.txt']),
    );
    const tooBig = await reg({ name: 'big.json', size: PLAN_LIMITS.Individual.maxFileSize + 1, checksum: sha256('abc') });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error.message).toContain('1 MB');
    expect((await reg({ name: 'x.json', size: 3, checksum: 'not-hex' })).status).toBe(400);
    expect(
      (
        await call(base, 'uploadRegister', {
          token: A.token,
          body: { rend: 'r_nope', name: 'a.json', file: { name: 'a.json', size: 1, checksum: sha256('a') } },
        })
      ).status,
    ).toBe(404);

    // Wrong bytes: refused, the item fails with a readable error, and no file appears.
    const good = Buffer.from('[[1,2,3,4]]');
    const ok = await reg({ name: 'a.json', size: good.length, checksum: sha256(good) });
    const wrong = await fetch(ok.body.upload.url, { method: 'PUT', body: new Uint8Array(Buffer.from('[[9,9,9,9]]')) });
    expect(wrong.status).toBe(400);
    const afterWrong = (await answer('rendList', { token: A.token, query: { bucket: project.stamp } })).rend.list.find(
      (r) => r.stamp === r2.stamp,
    )!;
    expect(afterWrong.upload.list[0]).toMatchObject({ state: 'Failed', error: expect.stringMatching(/SHA-256/) });
    const short = await reg({ name: 'b.json', size: good.length, checksum: sha256(good) });
    expect((await fetch(short.body.upload.url, { method: 'PUT', body: new Uint8Array(good.subarray(0, 5)) })).status).toBe(400);
    const tamperedUrl = short.body.upload.url.replace(/sig=[^&]+/, 'sig=AAAA');
    expect((await fetch(tamperedUrl, { method: 'PUT', body: new Uint8Array(good) })).status).toBe(403);
    expect(String(short.body.upload.url)).toContain(STORAGE_PATH_PREFIX);

    // Finishing before the bytes arrived is a conflict; finishing the group fails items that never got bytes.
    const early = await reg({ name: 'c.json', size: good.length, checksum: sha256(good) });
    expect((await call(base, 'uploadFinish', { token: A.token, body: { upload: early.body.upload.stamp } })).status).toBe(409);
    expect((await call(base, 'uploadFinish', { token: A.token, body: { upload: 'f_nope' } })).status).toBe(404);
    const fin = (await answer('rendFinish', { token: A.token, body: { rend: r2.stamp } })).rend;
    expect(fin.flight).toBe('Failed');
    expect(fin.upload.list.every((u) => u.state === 'Failed')).toBe(true);
    expect((await call(base, 'rendFinish', { token: A.token, body: { rend: 'r_nope' } })).status).toBe(404);

    const renamed = await answer('rendRename', { token: A.token, body: { rend: r2.stamp, name: 'Broken' } });
    expect(renamed.rend.name).toBe('Broken');
    expect(await answer('rendRemove', { token: A.token, body: { rend: r2.stamp, active: 0 } })).toEqual({
      ok: true,
    });
    const left = await answer('rendList', { token: A.token, query: { bucket: project.stamp, active: 1 } });
    expect(left.rend.list.map((r) => r.stamp)).toEqual([upload.stamp]);
  });

  it('requests: plan limits on piles, fit then generate, run and model lists, status, rename, remove', async () => {
    const project = (await answer('bucketCreate', { token: A.token, body: { client: A.client, name: 'Fit' } })).bucket;
    const { upload } = await uploadFiles(base, A.token, project.stamp, [{ name: 'train.json', bytes: fitData(60, 3) }]);
    const param = { explainability: false, input_column_size: 3, output_column_size: 4, task_target_size: 1, task: 'regression' as const };
    const pileOf = (p: unknown) =>
      call(base, 'pileCreate', { token: A.token, body: { bucket: project.stamp, variety: 'FitModel', param: p } });

    expect((await pileOf({ ...param, input_column_size: 4 })).body.error.message).toBe(MESSAGES.planLimitInputs('Individual', 3));
    expect((await pileOf({ ...param, output_column_size: 6 })).body.error.message).toBe(MESSAGES.planLimitOutputs('Individual', 5));
    expect((await pileOf({ ...param, task_target_size: 0 })).body.error.message).toBe(MESSAGES.atLeastOne);
    expect((await pileOf({ ...param, explainability: true })).body.error.message).toBe(MESSAGES.explainabilityNotAllowed);
    const pile = parse('pileCreate', (await pileOf(param)).body).pile;

    const fitR = await call(base, 'runCreate', {
      token: A.token,
      body: { bucket: project.stamp, function: 'fit', rend: upload.stamp, pile: pile.stamp, name: 'Train' },
    });
    expect(fitR.status).toBe(200);
    const fit = parse('runCreate', fitR.body).run;
    expect(fit).toMatchObject({ function: 'fit', state: 'Pending', rend: { stamp: upload.stamp, name: upload.name } });
    const genR = await call(base, 'runCreate', {
      token: A.token,
      body: { bucket: project.stamp, function: 'generate', rend: upload.stamp, fit: fit.stamp, name: 'Embed' },
    });
    expect(genR.status).toBe(200);
    const gen = parse('runCreate', genR.body).run;
    expect(gen.fit).toBe(fit.stamp);

    expect(
      (
        await call(base, 'runCreate', {
          token: A.token,
          body: { bucket: project.stamp, function: 'fit', rend: 'r_nope', pile: pile.stamp, name: 'x' },
        })
      ).body.error.message,
    ).toBe(MESSAGES.uploadNotFound);
    expect(
      (
        await call(base, 'runCreate', {
          token: A.token,
          body: { bucket: project.stamp, function: 'fit', rend: upload.stamp, pile: pile.stamp, name: '' },
        })
      ).body.error.message,
    ).toBe(MESSAGES.titleCreate);

    const final = async (id: string) =>
      waitFor(async () => {
        const r = await answer('runStatus', { token: A.token, query: { run: id } });
        return r.run.record.state === 'Finished' || r.run.record.state === 'Failed' ? r : null;
      });
    const fitDone = await final(fit.stamp);
    const genDone = await final(gen.stamp);
    expect(fitDone.run.record.state).toBe('Finished');
    expect(genDone.run.record).toMatchObject({ state: 'Finished', message: '' });
    expect(genDone.run.url).toBeTruthy();
    const download = await fetch(genDone.run.url!);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toMatch(/ensemble_result_/);
    expect(await download.json()).toBeTruthy();

    const runs = await answer('runList', { token: A.token, query: { bucket: project.stamp, active: 1 } });
    expect(runs.run.list.map((r) => r.stamp).sort()).toEqual([fit.stamp, gen.stamp].sort());
    expect(runs.bucket.runs).toBe(2);
    const uploads = await answer('rendList', { token: A.token, query: { bucket: project.stamp } });
    expect(uploads.rend.list[0].runs).toBe(2);
    expect(uploads.rend.list[0].box.list.length).toBe(1);

    const models = await answer('clientModelList', { token: A.token, query: { bucket: project.stamp, active: 1 } });
    expect(models.model.list).toHaveLength(1);
    const model = models.model.list[0];
    expect(model).toMatchObject({ name: 'Train', state: 'Finished', rend: { stamp: upload.stamp } });
    const general = await answer('generalModelList', { token: A.token, query: { active: 1 } });
    expect(general.model.list.length).toBeGreaterThan(0);
    expect((await call(base, 'modelRename', { token: A.token, body: { model: general.model.list[0].stamp, name: 'Mine' } })).status).toBe(
      403,
    );
    expect((await answer('modelRename', { token: A.token, body: { model: model.stamp, name: 'Renamed' } })).model.name).toBe('Renamed');
    expect((await call(base, 'modelRename', { token: A.token, body: { model: 'm_nope', name: 'x' } })).status).toBe(404);
    expect(await answer('modelRemove', { token: A.token, body: { model: model.stamp, active: 0 } })).toEqual({ ok: true });
    expect((await answer('clientModelList', { token: A.token, query: { bucket: project.stamp } })).model.list).toEqual([]);

    expect((await answer('runRename', { token: A.token, body: { run: gen.stamp, name: 'Embeddings' } })).run.name).toBe('Embeddings');
    expect((await call(base, 'runRename', { token: A.token, body: { run: 'n_nope', name: 'x' } })).body.error.message).toBe(
      MESSAGES.requestNotFound,
    );
    expect(await answer('runRemove', { token: A.token, body: { run: gen.stamp, active: 0 } })).toEqual({
      ok: true,
    });
    expect((await call(base, 'runStatus', { token: A.token, query: { run: gen.stamp } })).status).toBe(404);
    expect((await call(base, 'runStatus', { token: A.token, query: {} })).status).toBe(400);
    // The project list's counts follow request and upload creates and removes (kept on the project row).
    const listed = async () =>
      (await answer('bucketList', { token: A.token, query: { client: A.client } })).bucket.list.find((b) => b.stamp === project.stamp);
    expect(await listed()).toMatchObject({ runs: 1, rends: 1 });
    await call(base, 'rendRemove', { token: A.token, body: { rend: upload.stamp, active: 0 } });
    await call(base, 'runRemove', { token: A.token, body: { run: fit.stamp, active: 0 } });
    expect(await listed()).toMatchObject({ runs: 0, rends: 0 });
  });

  it('a general model generates on any upload: min(columns, 5) values per row in [-1, 1], the same every run', async () => {
    const project = (await answer('bucketCreate', { token: A.token, body: { client: A.client, name: 'General' } })).bucket;
    const { upload: wide } = await uploadFiles(base, A.token, project.stamp, [{ name: 'wide.json', bytes: fitData(25, 8) }]);
    const { upload: narrow } = await uploadFiles(base, A.token, project.stamp, [{ name: 'narrow.json', bytes: fitData(12, 2) }]);
    const generate = async (upload: string, fit: string) =>
      call(base, 'runCreate', {
        token: A.token,
        body: { bucket: project.stamp, function: 'generate', rend: upload, fit, name: `General ${fit}` },
      });
    const final = async (id: string) =>
      waitFor(async () => {
        const r = await answer('runStatus', { token: A.token, query: { run: id } });
        return r.run.record.state === 'Finished' || r.run.record.state === 'Failed' ? r : null;
      });
    const result = async (id: string) => {
      const done = await final(id);
      expect(done.run.record).toMatchObject({ state: 'Finished', message: '' });
      return (await (await fetch(done.run.url!)).json()) as { rows: number; width: number; model: string; embeddings: number[][] };
    };
    const reg = parse('runCreate', (await generate(wide.stamp, 'general-tabular-regression')).body).run;
    expect(reg).toMatchObject({ function: 'generate', fit: null });
    const cls = parse('runCreate', (await generate(narrow.stamp, 'general-tabular-classification')).body).run;
    const out = await result(reg.stamp);
    expect(out).toMatchObject({ rows: 25, width: 5, model: 'general-tabular-regression' });
    expect(out.embeddings).toHaveLength(25);
    expect(out.embeddings.every((e) => e.length === 5 && e.every((v) => Math.abs(v) <= 1))).toBe(true);
    const small = await result(cls.stamp);
    expect(small).toMatchObject({ rows: 12, width: 3, model: 'general-tabular-classification' });
    // Deterministic: the request run again writes the same embeddings.
    const again = (await answer('runRerun', { token: A.token, body: { run: reg.stamp } })).run;
    expect((await result(again.stamp)).embeddings).toEqual(out.embeddings);
    expect((await generate('r_nope', 'general-tabular-regression')).status).toBe(404);
  });

  it('Enterprise plan: explainability allowed, limits from the plan table', async () => {
    const E = await signup(base, 'ent');
    await setPlan(srv.built.services.db, E.client, 'Enterprise');
    const project = (await answer('bucketCreate', { token: E.token, body: { client: E.client, name: 'Ent' } })).bucket;
    const p = { explainability: true, input_column_size: 500, output_column_size: 500, task_target_size: 1, task: 'classification' };
    const pile = await call(base, 'pileCreate', { token: E.token, body: { bucket: project.stamp, variety: 'FitModel', param: p } });
    expect(pile.status).toBe(200);
    const over = await call(base, 'pileCreate', {
      token: E.token,
      body: { bucket: project.stamp, variety: 'FitModel', param: { ...p, input_column_size: 501 } },
    });
    expect(over.body.error.message).toBe(MESSAGES.enterpriseLimit(500));

    // Back on the Individual plan, parameters saved under Enterprise no longer pass.
    await setPlan(srv.built.services.db, E.client, 'Individual');
    const { upload } = await uploadFiles(base, E.token, project.stamp, [{ name: 'd.json', bytes: fitData(10, 3) }]);
    const run = await call(base, 'runCreate', {
      token: E.token,
      body: { bucket: project.stamp, function: 'fit', rend: upload.stamp, pile: pile.body.pile.stamp, name: 'Too big now' },
    });
    expect(run.status).toBe(400);
    expect(run.body.error.message).toBe(MESSAGES.planLimitInputs('Individual', 3));
  });

  it('shrink: a quote, billing balance, payment on the portal page, then its run finishes', async () => {
    const S = await signup(base, 'shrink');
    // No free credit left: the quote must be paid.
    await srv.built.services.db.updateTable('clients').set({ credit_total: 100 }).where('stamp', '=', S.client).execute();
    const project = (await answer('bucketCreate', { token: S.token, body: { client: S.client, name: 'Shrink' } })).bucket;
    const { upload } = await uploadFiles(base, S.token, project.stamp, [{ name: 'model.py', bytes: PY_MODEL }]);
    expect(upload.flight).toBe('Ready');
    const params = upload.upload.list[0].meta.inputs!;
    expect(params).toBe(10 * 20 + 20 + 20 * 2 + 2);
    const pile = (await answer('pileCreate', { token: S.token, body: { bucket: project.stamp, variety: 'ShrinkService', param: {} } }))
      .pile;
    const longDesc = await call(base, 'shrinkCreate', {
      token: S.token,
      body: { bucket: project.stamp, function: 'shrink', rend: upload.stamp, pile: pile.stamp, name: 'Small', desc: 'x'.repeat(301) },
    });
    expect(longDesc.body.error.message).toBe(MESSAGES.description);
    const q = await call(base, 'shrinkCreate', {
      token: S.token,
      body: { bucket: project.stamp, function: 'shrink', rend: upload.stamp, pile: pile.stamp, name: 'Small', desc: 'Make it small' },
    });
    expect(q.status).toBe(200);
    const quote = parse('shrinkCreate', q.body).quote;
    expect(quote).toMatchObject({ state: 'Unpaid', cent: 22, function: 'shrink', rend: { stamp: upload.stamp } });
    expect(quote.invoiceNum).toMatch(/^INV-/);

    const status = await answer('quoteStatus', { token: S.token, query: { quote: quote.stamp } });
    expect(status.quote.run).toBeNull();
    expect((await call(base, 'quoteStatus', { token: S.token, query: { quote: 'q_nope' } })).status).toBe(404);

    const billing = (await answer('billingStatus', { token: S.token, query: { client: S.client } })).billing;
    expect(billing.accountCentBalance).toBe(22);
    expect(billing.creditBalance).toBe('0');
    expect(billing.creditConsumed).toBe('0.0001');

    const page = await fetch(billing.portalUrl);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(quote.invoiceNum);
    const action = /action="([^"]+)"/.exec(html)![1].replace(/&amp;/g, '&');
    const pay = await fetch(new URL(action, base), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(pay.status).toBe(303);
    expect((await fetch(billing.portalUrl.replace(/sig=[^&]+/, 'sig=forged'))).status).toBe(403);

    const done = await waitFor(async () => {
      const s = await answer('quoteStatus', { token: S.token, query: { quote: quote.stamp } });
      return s.quote.run && (s.quote.run.state === 'Finished' || s.quote.run.state === 'Failed') ? s : null;
    });
    expect(done.quote.record.state).toBe('Paid');
    expect(done.quote.run).toMatchObject({ function: 'shrink', state: 'Finished', quote: quote.stamp });
    const after = (await answer('billingStatus', { token: S.token, query: { client: S.client } })).billing;
    expect(after.accountCentBalance).toBe(0);
  });

  it('fit and generate spend free credit by their inputs; a quote charges $0.22 per started million beyond it', async () => {
    const C = await signup(base, 'credit');
    const billingOf = async () => (await answer('billingStatus', { token: C.token, query: { client: C.client } })).billing;
    const start = await billingOf();
    expect(start).toMatchObject({ creditConsumed: '0', accountCentBalance: 0 });
    const total = Number(start.creditBalance) * 1e6;
    const project = (await answer('bucketCreate', { token: C.token, body: { client: C.client, name: 'Credit' } })).bucket;
    const { upload } = await uploadFiles(base, C.token, project.stamp, [{ name: 'train.json', bytes: fitData(50, 3) }]);
    const inputs = upload.upload.list[0].meta.inputs!;
    expect(inputs).toBe(200);
    const param = { explainability: false, input_column_size: 3, output_column_size: 2, task_target_size: 1, task: 'regression' as const };
    const pile = (await answer('pileCreate', { token: C.token, body: { bucket: project.stamp, variety: 'FitModel', param } })).pile;
    const fit = (
      await answer('runCreate', {
        token: C.token,
        body: { bucket: project.stamp, function: 'fit', rend: upload.stamp, pile: pile.stamp, name: 'F' },
      })
    ).run;
    expect(await billingOf()).toMatchObject({
      creditConsumed: String(inputs / 1e6),
      creditBalance: String((total - inputs) / 1e6),
      accountCentBalance: 0,
    });
    await call(base, 'runCreate', {
      token: C.token,
      body: { bucket: project.stamp, function: 'generate', rend: upload.stamp, fit: fit.stamp, name: 'G' },
    });
    expect(await billingOf()).toMatchObject({ creditConsumed: String((2 * inputs) / 1e6) });

    // 4,002,000 parameters against 1,000,400 of credit left: 3,001,600 beyond it, 4 started millions, 88 cents.
    await srv.built.services.db.updateTable('clients').set({ credit_total: 1_000_800 }).where('stamp', '=', C.client).execute();
    const big = Buffer.from(
      'import torch.nn as nn\n\nclass Big(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(2000, 2000)\n',
    );
    const up = await uploadFiles(base, C.token, project.stamp, [{ name: 'big.py', bytes: big }]);
    expect(up.upload.upload.list[0].meta.inputs).toBe(4_002_000);
    const shrinkPile = (
      await answer('pileCreate', { token: C.token, body: { bucket: project.stamp, variety: 'ShrinkService', param: {} } })
    ).pile;
    const q = await call(base, 'shrinkCreate', {
      token: C.token,
      body: { bucket: project.stamp, function: 'shrink', rend: up.upload.stamp, pile: shrinkPile.stamp, name: 'Shrink it', desc: '' },
    });
    expect(parse('shrinkCreate', q.body).quote).toMatchObject({ state: 'Unpaid', cent: 88 });
    expect(await billingOf()).toMatchObject({ creditBalance: '0', creditConsumed: '1.0008', accountCentBalance: 88 });
  });

  it('the payment page escapes what users typed', async () => {
    const n = `xss${kind}${Date.now().toString(36)}`;
    const r = await call(base, 'signup', {
      body: { email: `${n}@example.com`, username: n, password: PASSWORD, name: '<script>alert(1)</script>' },
    });
    const X = parse('signup', r.body);
    const billing = (await answer('billingStatus', { token: X.token, query: { client: X.login.client.list[0].stamp } })).billing;
    const page = await fetch(billing.portalUrl);
    const html = await page.text();
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('client API keys authenticate the Python client for their own client only', async () => {
    const key = (await answer('apikeyCreate', { token: A.token, body: { client: A.client, name: 'py' } })).apikey;
    const projects = await call(base, 'bucketList', { token: key.token, query: { client: A.client } });
    expect(projects.status).toBe(200);
    // The key finds the account it works for.
    const perms = await answer('permissions', { token: key.token });
    expect(perms.map((p) => p.client.stamp)).toEqual([A.client]);
    const project = (await answer('bucketCreate', { token: A.token, body: { client: A.client, name: 'Py' } })).bucket;
    const { upload } = await uploadFiles(base, key.token, project.stamp, [{ name: 'd.json', bytes: fitData(10, 2) }]);
    expect(upload.flight).toBe('Ready');
    // Not a call the Python client makes, and not another client's data.
    expect((await call(base, 'apikeyList', { token: key.token, query: { client: A.client } })).status).toBe(401);
    const B = await signup(base, 'bob');
    expect((await call(base, 'bucketList', { token: key.token, query: { client: B.client } })).status).toBe(403);
    expect((await call(base, 'bucketList', { token: 'pk_forged', query: { client: A.client } })).status).toBe(401);
  });

  it('a NUL character in a query, a body or Basic auth is a 400 naming the field, never a 5xx', async () => {
    const inQuery = await call(base, 'bucketList', { token: A.token, query: { client: 'c_\u0000' } });
    expect(inQuery.status).toBe(400);
    expect(inQuery.body.error.message).toBe('client: must not contain the NUL character');
    const inBody = await call(base, 'bucketCreate', { token: A.token, body: { client: A.client, name: 'Nul \u0000 name' } });
    expect(inBody.status).toBe(400);
    expect(inBody.body.error.message).toBe('name: must not contain the NUL character');
    const login = await fetch(new URL(CALLS.login.path, base), {
      method: 'POST',
      headers: { authorization: basic('a\u0000b@example.com', 'x') },
    });
    expect(login.status).toBe(400);
    expect((await login.json()).error.code).toBe(ERROR_CODES.invalid);
  });

  it("a request Node's HTTP parser refuses still gets the error envelope and the security headers", async () => {
    const { port, hostname } = new URL(base);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n'));
      let text = '';
      socket.on('data', (d) => (text += d.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(raw.toLowerCase()).toContain('x-frame-options: deny');
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)).error.code).toBe(ERROR_CODES.invalid);
  });

  it('unknown fields are ignored; bad JSON and unknown API paths are clear 4xx', async () => {
    const r = await call(base, 'bucketCreate', { token: A.token, body: { client: A.client, name: 'Extra', surprise: { deep: [1, 2] } } });
    expect(r.status).toBe(200);
    const bad = await fetch(new URL('/api/bucket/item', base), {
      method: 'PUT',
      headers: { authorization: `Bearer ${A.token}`, 'content-type': 'application/json' },
      body: '{"client":',
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe(ERROR_CODES.invalid);
    const empty = await fetch(new URL('/api/user/refresh', base), {
      method: 'POST',
      headers: { authorization: `Bearer ${A.token}`, 'content-type': 'application/json' },
    });
    expect(empty.status).toBe(200);
    const polluted = await fetch(new URL('/api/bucket/item', base), {
      method: 'PUT',
      headers: { authorization: `Bearer ${A.token}`, 'content-type': 'application/json' },
      body: '{"client":"x","name":"y","__proto__":{"admin":true}}',
    });
    expect(polluted.status).toBe(400);
    const nowhere = await fetch(new URL('/api/nowhere', base));
    expect(nowhere.status).toBe(404);
    expect((await nowhere.json()).error.code).toBe(ERROR_CODES.notFound);
    const page = await fetch(new URL('/client/x/projects', base));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
  });
});

describe.runIf(kinds.includes('postgres'))('rate limits across API processes', () => {
  it('two servers on one PostgreSQL database count the same attempts', async () => {
    const SHARED_SECRET = testSecret();
    const db = await createPgDatabase();
    const dirs = [await mkdtemp(join(tmpdir(), 'portal-rl-')), await mkdtemp(join(tmpdir(), 'portal-rl-'))];
    const apps: BuiltApp[] = [];
    try {
      for (const dir of dirs) {
        const config = loadConfig(
          { DATABASE_URL: db.url, JWT_SECRET: SHARED_SECRET },
          { dataDir: dir, logLevel: 'silent', worker: false, authRateLimit: 3, metricsPort: null, checkAnswers: true },
        );
        const built = await buildApp(config);
        apps.push(built);
      }
      const attempt = (i: number) =>
        apps[i % 2].app.inject({
          method: 'POST',
          url: CALLS.login.path,
          headers: { authorization: basic('x@y.co', 'nope'), 'x-test': String(i) },
        });
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await attempt(i)).statusCode);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
    } finally {
      for (const a of apps) await a.close();
      await db.drop();
      for (const d of dirs) await rm(d, { recursive: true, force: true });
    }
  });
});

describe('rate limits', () => {
  it('login, sign-up and reset answer 429 with a clear message past the limit', async () => {
    const srv = await startServer('embedded', { authRateLimit: 3 });
    try {
      const statuses = [];
      for (let i = 0; i < 5; i++)
        statuses.push((await call(srv.url, 'login', { headers: { authorization: basic('x@y.co', 'nope') } })).status);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      const r = await call(srv.url, 'login', { headers: { authorization: basic('x@y.co', 'nope') } });
      expect(r.body.error).toEqual({ code: ERROR_CODES.rateLimited, message: MESSAGES.rateLimited });
      for (let i = 0; i < 3; i++) await call(srv.url, 'resetStart', { body: { email: 'x@y.co' } });
      expect((await call(srv.url, 'resetStart', { body: { email: 'x@y.co' } })).status).toBe(429);
    } finally {
      await srv.close();
    }
  });
});
