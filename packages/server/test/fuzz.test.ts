// Fuzz: 10,000+ generated bodies across the write calls, and query strings across the read calls, must never produce a 5xx (in-process inject, embedded database).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { type CallName } from '@portal/core';
import { CALLS } from '@portal/core/contract/table';
import { call, sha256, signup, startServer, type TestServer } from './harness';

const WRITE_CALLS = (Object.keys(CALLS) as CallName[]).filter((n) => CALLS[n].method !== 'GET');
const FIELDS = [
  'client',
  'name',
  'bucket',
  'rend',
  'apikey',
  'active',
  'model',
  'run',
  'upload',
  'file',
  'variety',
  'param',
  'function',
  'pile',
  'fit',
  'desc',
  'service',
  'token',
  'email',
  'username',
  'password',
  'checksum',
  'size',
];

describe('fuzzing the write calls', () => {
  let srv: TestServer;
  let token: string;
  let ids: string[];

  beforeAll(async () => {
    srv = await startServer('embedded', { worker: false, authRateLimit: 100_000 });
    const A = await signup(srv.url, 'fuzz');
    token = A.token;
    const project = (await call(srv.url, 'bucketCreate', { token, body: { client: A.client, name: 'Fuzz' } })).body.bucket.stamp;
    const upload = (await call(srv.url, 'rendCreate', { token, body: { bucket: project, name: 'r' } })).body.rend.stamp;
    const key = (await call(srv.url, 'apikeyCreate', { token, body: { client: A.client, name: 'k' } })).body.apikey.clue;
    const pile = (await call(srv.url, 'pileCreate', { token, body: { bucket: project, variety: 'ShrinkService', param: {} } })).body.pile
      .stamp;
    ids = [A.client, project, upload, key, pile, 'general-tabular-regression'];
  });
  afterAll(async () => {
    await srv?.close();
  });

  it('10,000 generated bodies: no response is a 5xx', async () => {
    const idArb = fc.constantFrom(...ids);
    const value = fc.oneof(
      idArb,
      fc.string({ maxLength: 80 }),
      // Any code point, NUL and lone surrogates included: text a database cannot store must still be a 4xx.
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.constantFrom('\u0000', 'a\u0000b', '\ud800'),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.constantFrom(
        'fit',
        'generate',
        'shrink',
        'FitModel',
        'ShrinkService',
        'OpenAI',
        'a.json',
        'x.py',
        'regression',
        0,
        1,
        -1,
        1e308,
        '',
      ),
      fc.record(
        {
          name: fc.oneof(fc.string(), fc.constantFrom('d.json', 'm.py', '.json')),
          size: fc.oneof(fc.integer(), fc.double()),
          checksum: fc.oneof(fc.string(), fc.constant(sha256('x'))),
        },
        { requiredKeys: [] },
      ),
      fc.record(
        {
          explainability: fc.boolean(),
          input_column_size: fc.integer(),
          output_column_size: fc.integer(),
          task_target_size: fc.integer(),
          task: fc.constantFrom('regression', 'classification', 'x'),
        },
        { requiredKeys: [] },
      ),
      fc.anything({ maxDepth: 2 }),
    );
    const body = fc.oneof(
      { weight: 6, arbitrary: fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 8 }) },
      { weight: 2, arbitrary: fc.anything({ maxDepth: 3 }) },
      { weight: 1, arbitrary: fc.string().map((s) => ({ raw: s })) },
    );
    const auth = fc.oneof(
      { weight: 8, arbitrary: fc.constant(`Bearer ${token}`) },
      { weight: 1, arbitrary: fc.string().map((s) => `Bearer ${s}`) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary' }).map((s) => `Basic ${Buffer.from(s).toString('base64')}`) },
    );
    const failures: string[] = [];
    let count = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...WRITE_CALLS), body, auth, async (name, b, authorization) => {
        count++;
        const def = CALLS[name];
        const raw = b && typeof b === 'object' && 'raw' in (b as object) && Object.keys(b as object).length === 1;
        const payload = raw ? String((b as { raw: string }).raw) : JSON.stringify(b ?? null);
        const res = await srv.built.app.inject({
          method: def.method,
          url: def.path,
          headers: { authorization, 'content-type': 'application/json' },
          payload,
        });
        if (res.statusCode >= 500) failures.push(`${name} ${payload.slice(0, 200)} -> ${res.statusCode} ${res.body}`);
        return res.statusCode < 500;
      }),
      { numRuns: 10_000, seed: 20261121 },
    );
    expect(failures).toEqual([]);
    expect(count).toBeGreaterThanOrEqual(10_000);
  }, 180_000);

  it('2,000 generated query strings on the read calls: no response is a 5xx', async () => {
    // Readiness answers 503 by design when a part is not ready (this server runs no worker): not a failure of input.
    const READ_CALLS = (Object.keys(CALLS) as CallName[]).filter((n) => CALLS[n].method === 'GET' && n !== 'ready');
    const value = fc.oneof(
      fc.constantFrom(...ids),
      fc.string({ maxLength: 80 }),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.constantFrom('0', '1', '-1', '2', '1e308', 'NaN', '', '\u0000', '[]', '{}'),
    );
    const pairs = fc.array(fc.tuple(fc.constantFrom(...FIELDS, 'active', 'quote'), value), { maxLength: 6 });
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...READ_CALLS), pairs, async (name, kv) => {
        const query = new URLSearchParams(kv).toString();
        const res = await srv.built.app.inject({
          method: 'GET',
          url: `${CALLS[name].path}?${query}`,
          headers: { authorization: `Bearer ${token}` },
        });
        if (res.statusCode >= 500) failures.push(`${name} ?${query.slice(0, 200)} -> ${res.statusCode} ${res.body}`);
        return res.statusCode < 500;
      }),
      { numRuns: 2_000, seed: 20261121 },
    );
    expect(failures).toEqual([]);
  }, 120_000);
});
