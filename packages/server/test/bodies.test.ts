// Hostile request bodies over HTTP on both databases: too deep, too big, wrong type, polluting; always a 4xx with a sentence.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, type CallName } from '@portal/core';
import { CALLS } from '@portal/core/contract/table';
import { call, dbKinds, signup, startServer, type TestServer } from './harness';
import { MAX_JSON_DEPTH, TOO_DEEP_MESSAGE, jsonTooDeep } from '../src/bodies';

const kinds = await dbKinds();
const WRITE_CALLS = (Object.keys(CALLS) as CallName[]).filter((n) => CALLS[n].method !== 'GET');
const arrays = (n: number) => '['.repeat(n) + ']'.repeat(n);
const objects = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

describe('jsonTooDeep', () => {
  it('counts arrays and objects, not brackets inside strings or escaped quotes', () => {
    expect(jsonTooDeep(arrays(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonTooDeep(arrays(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonTooDeep(objects(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonTooDeep(`{"name":"${'['.repeat(500)}"}`)).toBe(false);
    expect(jsonTooDeep(`{"name":"a\\"${'{'.repeat(500)}"}`)).toBe(false);
    // Siblings do not add up: depth, not count.
    expect(jsonTooDeep(`[${Array.from({ length: 5000 }, () => '[[1]]').join(',')}]`)).toBe(false);
  });
  it('walks a megabyte of nesting in linear time without recursion', () => {
    const t = Date.now();
    expect(jsonTooDeep('['.repeat(1_000_000), Number.MAX_SAFE_INTEGER)).toBe(false);
    expect(Date.now() - t).toBeLessThan(1000);
  });
});

describe.each(kinds)('hostile bodies on the %s database', (kind) => {
  let srv: TestServer;
  let base: string;
  let token: string;
  let client: string;

  beforeAll(async () => {
    srv = await startServer(kind, { worker: false, authRateLimit: 100_000 });
    base = srv.url;
    ({ token, client } = await signup(base, 'bodies'));
  });
  afterAll(async () => {
    await srv?.close();
  });

  const send = async (name: CallName, body: string | Uint8Array, opts: { token?: string; type?: string | null } = {}) => {
    const def = CALLS[name];
    const headers: Record<string, string> = {};
    if (opts.type !== null) headers['content-type'] = opts.type ?? 'application/json';
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    const res = await fetch(new URL(def.path, base), { method: def.method, headers, body: body as BodyInit });
    const text = await res.text();
    let json: any = null;
    try {
      json = JSON.parse(text);
    } catch {}
    return { status: res.status, body: json, text };
  };

  describe('a body nested beyond the limit is refused with 400 on every call, signed in or not', () => {
    it.each(WRITE_CALLS)('%s', async (name) => {
      for (const t of [undefined, token]) {
        for (const body of [arrays(5000), objects(5000), `{"name":${arrays(100_000)}}`]) {
          const r = await send(name, body, { token: t });
          expect(r.status, `${name} ${t ? 'signed in' : 'signed out'}`).toBe(400);
          expect(r.body.error).toEqual({ code: ERROR_CODES.invalid, message: TOO_DEEP_MESSAGE });
        }
      }
    });
  });

  it('a deep but small body (65 levels, 130 bytes) is refused; 64 levels reach the schema check instead', async () => {
    const deep = await send('bucketCreate', arrays(MAX_JSON_DEPTH + 1), { token });
    expect(deep.status).toBe(400);
    expect(deep.body.error.message).toBe(TOO_DEEP_MESSAGE);
    const atLimit = await send('bucketCreate', JSON.stringify({ client, name: JSON.parse(arrays(MAX_JSON_DEPTH - 1)) }), { token });
    expect(atLimit.status).toBe(400);
    expect(atLimit.body.error.message).not.toBe(TOO_DEEP_MESSAGE);
    expect(atLimit.body.error.message).toMatch(/name/);
  });

  it('huge numbers, long strings, wrong types, duplicate keys and prototype keys: a 4xx with a sentence, never a 500', async () => {
    const cases: Array<[CallName, string | Uint8Array, string | null, number]> = [
      ['bucketCreate', `{"client":"${client}","name":1e999}`, 'application/json', 400],
      ['bucketRemove', '{"bucket":"b_x","active":1e999}', 'application/json', 400],
      ['bucketRemove', '{"bucket":"b_x","active":123456789012345678901234567890}', 'application/json', 400],
      ['bucketRemove', '{"bucket":"b_x","active":-0}', 'application/json', 404],
      [
        'pileCreate',
        '{"bucket":"b_x","variety":"FitModel","param":{"input_column_size":1e308,"output_column_size":1,"task_target_size":1,"explainability":false,"task":"regression"}}',
        'application/json',
        400,
      ],
      ['bucketCreate', JSON.stringify({ client, name: 'x'.repeat(900_000) }), 'application/json', 400],
      ['bucketCreate', JSON.stringify({ client, name: 'x'.repeat(2_000_000) }), 'application/json', 413],
      ['bucketCreate', `{"client":"${client}","name":"a","name":"${'b'.repeat(70)}"}`, 'application/json', 400],
      ['bucketCreate', `{"client":"${client}","name":"a","__proto__":{"admin":true}}`, 'application/json', 400],
      ['bucketCreate', `{"client":"${client}","name":"a","constructor":{"prototype":{"admin":true}}}`, 'application/json', 400],
      ['bucketCreate', `{"client":"${client}","name":"a"}`, 'text/plain', 400],
      ['bucketCreate', `<bucket/>`, 'application/xml', 415],
      ['bucketCreate', `--x\r\ncontent-disposition: form-data; name="name"\r\n\r\na\r\n--x--`, 'multipart/form-data; boundary=x', 415],
      ['bucketCreate', `{"client":"${client}","name":"a"}`, null, 400],
      ['bucketCreate', `{"client":"${client}",`, 'application/json', 400],
      ['bucketCreate', 'null', 'application/json', 400],
      ['bucketCreate', '"a string"', 'application/json', 400],
      ['bucketCreate', '12345', 'application/json', 400],
      ['bucketCreate', '[]', 'application/json', 400],
      ['bucketCreate', new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), 'application/json', 400],
    ];
    for (const [name, body, type, status] of cases) {
      const r = await send(name, body, { token, type });
      const label = `${name} ${type} ${typeof body === 'string' ? body.slice(0, 80) : 'bytes'}`;
      expect(r.status, `${label}: ${r.text.slice(0, 200)}`).toBe(status);
      expect(r.body?.error?.message, label).toMatch(/\w{3}/);
      expect(r.text, label).not.toMatch(/at .+\.(js|ts):\d+|stack|syntax error at/i);
    }
    // Nothing above made a project.
    const list = await call(base, 'bucketList', { token, query: { client, active: 1 } });
    expect(list.body.bucket.list).toEqual([]);
  });

  it('a form body (the payment page posts one) with __proto__ keys pollutes nothing; unknown keys are dropped', async () => {
    const r = await send('bucketCreate', `client=${client}&name=Form&__proto__=x&constructor=y`, {
      token,
      type: 'application/x-www-form-urlencoded',
    });
    expect(r.status).toBe(200);
    expect(r.body.bucket.name).toBe('Form');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('x');
  });
});
