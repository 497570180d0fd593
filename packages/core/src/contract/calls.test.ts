import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { CALLS } from './table';

// SPEC section 7, copied literally: method, path, and the payload fields (query or body) it names.
const SPEC_CALLS: [string, string, string[]][] = [
  ['POST', '/api/user/login', []],
  ['POST', '/api/user/signup', ['email', 'username', 'password', 'name']],
  ['POST', '/api/user/password/reset/start', ['email']],
  ['POST', '/api/user/password/reset/finish', ['password']],
  ['POST', '/api/user/refresh', []],
  ['GET', '/api/user/permission', []],
  ['GET', '/api/client/apikey/item', ['client']],
  ['PUT', '/api/client/apikey/item', ['client', 'name']],
  ['POST', '/api/client/apikey/name', ['apikey', 'name']],
  ['POST', '/api/client/apikey/remove', ['apikey', 'active']],
  ['GET', '/api/integration/apikey/item', ['client']],
  ['PUT', '/api/integration/apikey/item', ['client', 'name', 'service', 'token']],
  ['POST', '/api/integration/apikey/name', ['apikey', 'name']],
  ['POST', '/api/integration/apikey/remove', ['apikey', 'active']],
  ['GET', '/api/bucket/item', ['active', 'client']],
  ['PUT', '/api/bucket/item', ['client', 'name']],
  ['POST', '/api/bucket/name', ['bucket', 'name']],
  ['POST', '/api/bucket/remove', ['bucket', 'active']],
  ['GET', '/api/client/model/item', ['active', 'bucket']],
  ['GET', '/api/general/model/item', ['active']],
  ['POST', '/api/client/model/name', ['model', 'name']],
  ['POST', '/api/client/model/remove', ['model', 'active']],
  ['GET', '/api/run/item', ['active', 'bucket']],
  ['POST', '/api/run/name', ['run', 'name']],
  ['POST', '/api/run/remove', ['run', 'active']],
  ['GET', '/api/run/status', ['run']],
  ['GET', '/api/rend/item', ['active', 'bucket']],
  ['PUT', '/api/rend/item', ['bucket', 'name']],
  ['POST', '/api/rend/finish', ['rend']],
  ['POST', '/api/rend/name', ['rend', 'name']],
  ['POST', '/api/rend/remove', ['rend', 'active']],
  ['PUT', '/api/upload/item', ['rend', 'name', 'file']],
  ['POST', '/api/upload/finish', ['upload']],
  ['PUT', '/api/pile/item', ['bucket', 'variety', 'param']],
  ['PUT', '/api/run/item/generate', ['bucket', 'function', 'rend', 'name']],
  ['PUT', '/api/run/item/shrink', ['bucket', 'function', 'rend', 'pile', 'name', 'desc']],
  ['GET', '/api/quote/status', ['quote']],
  ['GET', '/api/client/billing/status', ['client']],
];

// DESIGN.md's additions, from their issue's wire contract: members, invitations, roles and the audit log.
const TEAM_CALLS: [string, string, string[]][] = [
  ['GET', '/api/client/member/item', ['client']],
  ['PUT', '/api/client/member/invite', ['client', 'email', 'role']],
  ['GET', '/api/client/member/invite', ['client']],
  ['POST', '/api/client/member/invite/remove', ['invite']],
  ['POST', '/api/client/member/accept', ['token']],
  ['POST', '/api/client/member/role', ['client', 'user', 'role']],
  ['POST', '/api/client/member/remove', ['client', 'user']],
  ['GET', '/api/client/audit', ['client', 'cursor', 'before']],
];

/** Every field name a request schema accepts, across the variants of a discriminated union. */
function fieldsOf(schema: z.ZodMiniType | undefined): Set<string> {
  const out = new Set<string>();
  const walk = (s: unknown) => {
    if (s instanceof z.ZodMiniObject) for (const k of Object.keys(s.shape)) out.add(k);
    else if (s instanceof z.ZodMiniDiscriminatedUnion || s instanceof z.ZodMiniUnion) for (const o of s.def.options) walk(o);
  };
  walk(schema);
  return out;
}

const now = 1_790_000_000;
const client = { stamp: 'c1', name: 'Acme Labs', plan: 'Individual', choice: 'Cloud', active: 1 };
const bucket = { stamp: 'b1', name: 'Churn', runs: 0, rends: 1, createdAt: now };
const run = {
  stamp: 'r1',
  name: 'Fit',
  desc: '',
  function: 'fit',
  state: 'Pending',
  message: '',
  createdAt: now,
  rend: { stamp: 'u1', name: 'data.json' },
};

describe('route table of the calls (SPEC section 7)', () => {
  it.each([...SPEC_CALLS, ...TEAM_CALLS])('%s %s is in the table with the payload SPEC names', (method, path, fields) => {
    const defs = Object.values(CALLS).filter((d) => d.method === method && d.path === path);
    expect(defs).toHaveLength(1);
    const def = defs[0] as { query?: z.ZodMiniType; body?: z.ZodMiniType };
    const accepted = fieldsOf(method === 'GET' ? def.query : def.body);
    for (const f of fields) expect(accepted, `${method} ${path} accepts ${f}`).toContain(f);
  });

  it("has no call SPEC does not list, apart from the probes and DESIGN.md's additions (logout)", () => {
    const spec = new Set([...SPEC_CALLS, ...TEAM_CALLS].map(([m, p]) => `${m} ${p}`));
    const extra = Object.values(CALLS)
      .map((d) => `${d.method} ${d.path}`)
      .filter((k) => !spec.has(k));
    // DESIGN.md's additions, one a line.
    const additions = [
      'GET /api/health',
      'GET /api/ready',
      'POST /api/user/logout',
      'GET /api/run/events',
      'PUT /api/run/item/rerun',
      'GET /api/client/usage',
      'GET /api/upload/preview',
      'GET /api/run/projection',
      // account security: two-factor sign-in's second step, status, setup, confirmation and turning off
      'POST /api/user/login/otp',
      'GET /api/user/otp',
      'POST /api/user/otp/setup',
      'POST /api/user/otp/enable',
      'POST /api/user/otp/disable',
      // account security: sessions you can see, ending one or every other
      'GET /api/user/session',
      'POST /api/user/session/end',
      'POST /api/user/session/end-others',
      // account changes, export and deletion
      'GET /api/user/account',
      'GET /api/user/account/events',
      'POST /api/user/password/change',
      'POST /api/user/email/change',
      'POST /api/user/email/cancel',
      'POST /api/user/email/confirm',
      'GET /api/user/export',
      'POST /api/user/delete',
      // webhooks: endpoints, their delivery log, the listen stream
      'GET /api/client/webhook/item',
      'PUT /api/client/webhook/item',
      'GET /api/client/webhook/show',
      'POST /api/client/webhook/update',
      'POST /api/client/webhook/rotate',
      'POST /api/client/webhook/remove',
      'POST /api/client/webhook/test',
      'GET /api/client/webhook/delivery',
      'GET /api/client/webhook/delivery/show',
      'POST /api/client/webhook/delivery/redeliver',
      'GET /api/client/webhook/listen',
    ];
    expect(extra.sort()).toEqual(additions.sort());
  });

  it('generate runs take a fit, fit runs a pile', () => {
    const body = CALLS.runCreate.body;
    expect(body.safeParse({ bucket: 'b1', function: 'fit', rend: 'u1', pile: 'p1', name: 'Fit' }).success).toBe(true);
    expect(body.safeParse({ bucket: 'b1', function: 'generate', rend: 'u1', fit: 'r1', name: 'Gen' }).success).toBe(true);
    expect(body.safeParse({ bucket: 'b1', function: 'generate', rend: 'u1', pile: 'p1', name: 'Gen' }).success).toBe(false);
  });
});

describe('response envelopes read what SPEC section 7 says', () => {
  it('login: login {client.list, bucket.list} and token', () => {
    const r = CALLS.login.response.parse({ login: { client: { list: [client] }, bucket: { list: [bucket] } }, token: 't' });
    if (!('login' in r)) throw new Error('read as a challenge');
    expect(r.login.client.list[0].name).toBe('Acme Labs');
    expect(r.token).toBe('t');
  });

  it('login with two-factor sign-in on: a challenge for the second step, and no token', () => {
    const r = CALLS.login.response.parse({ otp: { challenge: 'c', expiresAt: now } });
    expect('token' in r).toBe(false);
    expect(CALLS.loginOtp.body.safeParse({ challenge: 'c', code: '123 456' }).success).toBe(true);
    expect(CALLS.loginOtp.body.safeParse({ challenge: 'c', code: 'k3x9p-2mq7z' }).success).toBe(true);
    expect(CALLS.loginOtp.body.safeParse({ challenge: 'c', code: '12345' }).success).toBe(false);
  });

  it('permission: an array or permission.list, both read as the array', () => {
    const entry = { client, createdAt: now };
    expect(CALLS.permissions.response.parse([entry])).toEqual([entry]);
    expect(CALLS.permissions.response.parse({ permission: { list: [entry] } })).toEqual([entry]);
  });

  it('run status: run.record and run.url; quote status: client, bucket, quote.record and quote.run', () => {
    expect(CALLS.runStatus.response.parse({ run: { record: run, url: '/dl' } }).run.url).toBe('/dl');
    const quote = { ...run, stamp: 'q1', function: 'shrink', state: 'Unpaid', cent: 44, invoiceNum: 'INV-1' };
    const r = CALLS.quoteStatus.response.parse({ client, bucket, quote: { record: quote, run: null } });
    expect(r.quote.record.cent).toBe(44);
  });

  it('ids come back where SPEC reads them: bucket.stamp, rend.stamp, upload.url and upload.stamp, pile.stamp, run.stamp, quote.stamp', () => {
    const upload = {
      stamp: 'i1',
      name: 'data.json',
      state: 'Pending',
      file: { checksum: 'a'.repeat(64), name: 'data.json', size: 3 },
      meta: { proc: 0, cols: null, rows: null, inputs: null, error: null },
      error: null,
      createdAt: now,
    };
    expect(CALLS.bucketCreate.response.parse({ bucket }).bucket.stamp).toBe('b1');
    expect(CALLS.uploadRegister.response.parse({ upload: { ...upload, url: '/put' } }).upload.url).toBe('/put');
    expect(CALLS.runCreate.response.parse({ run }).run.stamp).toBe('r1');
    const pile = { stamp: 'p1', variety: 'ShrinkService', param: {}, createdAt: now };
    expect(CALLS.pileCreate.response.parse({ pile }).pile.stamp).toBe('p1');
  });

  it('team: member.list with user, role and createdAt; invite; audit.list with a next cursor', () => {
    const member = { user: { stamp: 'u1', email: 'a@example.com', username: 'alice' }, role: 'owner', createdAt: now };
    expect(CALLS.memberList.response.parse({ client, member: { list: [member] } }).member.list[0].role).toBe('owner');
    expect(CALLS.memberList.response.safeParse({ client, member: { list: [{ ...member, role: 'admin' }] } }).success).toBe(false);
    const invite = { stamp: 'v1', email: 'b@example.com', role: 'member', createdAt: now, expiresAt: now + 7 * 86400 };
    expect(CALLS.inviteCreate.response.parse({ invite }).invite.expiresAt).toBe(now + 7 * 86400);
    const entry = { at: now, actor: { stamp: 'u1', email: 'a@example.com' }, action: 'project.create', target: 'b1', detail: 'Sales' };
    expect(CALLS.audit.response.parse({ audit: { list: [entry], next: '12' } }).audit.next).toBe('12');
    expect(CALLS.inviteCreate.body.safeParse({ client: 'c1', email: 'nope', role: 'member' }).error?.issues[0].message).toBe(
      'Invalid email address.',
    );
  });

  it('a response missing what SPEC reads does not parse', () => {
    expect(CALLS.login.response.safeParse({ login: { client: { list: [] } } }).success).toBe(false);
    expect(CALLS.billingStatus.response.safeParse({ billing: { creditBalance: 1 } }).success).toBe(false);
  });
});
