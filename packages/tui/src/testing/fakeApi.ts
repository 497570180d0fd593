// A small in-memory API on node:http for the tui's command and screen tests: answers the calls of core's route
// table with data that is checked against core's response schemas before it is sent (end-to-end tests use the real server).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import {
  CALLS, PLAN_LIMITS, STORAGE_PATH_PREFIX,
  type Billing, type Bucket, type CallName, type Client, type ClientApiKey, type IntegrationKey, type Model, type Quote, type Rend, type Run,
} from '@portal/core';

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
/** A token shaped like the server's (a JWT with exp) so core's token rules treat it as valid. */
export const fakeToken = (sub: string, email = `${sub}@example.com`) =>
  `${b64({ alg: 'HS256' })}.${b64({ sub, email, username: sub, exp: Math.floor(Date.now() / 1000) + 12 * 3600 })}.sig`;

export interface FakeState {
  users: { email: string; password: string; username: string; clients: string[] }[];
  clients: Client[];
  buckets: (Bucket & { client: string; active: number })[];
  keys: (ClientApiKey & { client: string })[];
  integrations: (IntegrationKey & { client: string })[];
  rends: (Rend & { bucket: string; active: number })[];
  runs: (Run & { bucket: string; active: number; url: string | null })[];
  models: (Model & { bucket: string; active: number })[];
  general: Model[];
  quotes: (Quote & { bucket: string; run: string | null })[];
  billing: Billing;
  /** Bytes received by the storage PUT, by upload stamp. */
  stored: Record<string, { size: number; sha256: string }>;
  /** Every call made, by name, for assertions. */
  calls: string[];
  /** Holds each storage PUT this long before answering (to cancel an upload in flight). */
  storageDelayMs?: number;
  /** Calls that should fail, with the HTTP status to answer. */
  failing: Partial<Record<CallName, number>>;
}

const now = () => Math.floor(Date.now() / 1000);
let seq = 100;
const id = (p: string) => `${p}${(++seq).toString(36).padStart(6, '0')}`;

export function seedState(): FakeState {
  const client: Client = { stamp: 'cli000001', name: 'Analytical Engines', plan: 'Individual', choice: 'Cloud', active: 1 };
  return {
    users: [{ email: 'ada@example.com', password: 'Secret-123', username: 'ada_l', clients: [client.stamp] }],
    clients: [client],
    buckets: [],
    keys: [],
    integrations: [],
    rends: [],
    runs: [],
    models: [],
    general: [{ stamp: 'gen000001', name: 'General text', desc: 'A general embedding', state: 'Finished', message: '', createdAt: 1_700_000_000, rend: null }],
    quotes: [],
    billing: { creditBalance: '4.5', creditConsumed: '0.5', accountCentBalance: 1234, portalUrl: 'http://pay.example/portal' },
    stored: {},
    calls: [],
    failing: {},
  };
}

class HttpError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }
}

const ROUTES = new Map(Object.entries(CALLS).map(([name, def]) => [`${def.method} ${def.path}`, name as CallName]));

export interface FakeApi {
  url: string;
  state: FakeState;
  close(): Promise<void>;
}

export async function startFakeApi(state: FakeState = seedState()): Promise<FakeApi> {
  const server = createServer((req, res) => void handle(state, req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, state, close: () => new Promise((r) => server.close(() => r())) };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function handle(state: FakeState, req: IncomingMessage, res: ServerResponse) {
  const u = new URL(req.url ?? '/', 'http://x');
  try {
    if (req.method === 'PUT' && u.pathname.startsWith(STORAGE_PATH_PREFIX)) {
      const stamp = u.pathname.slice(STORAGE_PATH_PREFIX.length);
      if (state.storageDelayMs) await new Promise((r) => setTimeout(r, state.storageDelayMs));
      const body = await readBody(req);
      state.stored[stamp] = { size: body.length, sha256: createHash('sha256').update(body).digest('hex') };
      state.calls.push('storagePut');
      return send(res, 200, { ok: true });
    }
    if (req.method === 'GET' && u.pathname.startsWith('/results/')) return send(res, 200, [[0.25, 0.5], [0.75, 1]]);
    const name = ROUTES.get(`${req.method} ${u.pathname}`);
    if (!name) throw new HttpError(404, 'not_found', 'Not found');
    state.calls.push(name);
    const def = CALLS[name] as { auth: string; response: { parse(v: unknown): unknown } };
    const raw = await readBody(req);
    const body = raw.length ? JSON.parse(raw.toString('utf8')) : {};
    const query = Object.fromEntries(u.searchParams);
    const auth = req.headers.authorization ?? '';
    let user: FakeState['users'][number] | undefined;
    if (def.auth === 'bearer') {
      const sub = auth.startsWith('Bearer ') ? JSON.parse(Buffer.from(auth.slice(7).split('.')[1] ?? '', 'base64url').toString() || '{}').sub : undefined;
      user = state.users.find((x) => x.username === sub);
      if (!user) throw new HttpError(401, 'token_expired', 'Token expired');
    }
    if (state.failing[name]) throw new HttpError(state.failing[name]!, 'internal', 'Simulated failure');
    const out = answer(state, name, { body, query, auth, user: user!, base: `http://${req.headers.host}` });
    def.response.parse(out);
    send(res, 200, out);
  } catch (e) {
    if (e instanceof HttpError) return send(res, e.status, { error: { code: e.code, message: e.message } });
    send(res, 500, { error: { code: 'internal', message: String((e as Error)?.message ?? e) } });
  }
}

interface Ctx {
  body: any;
  query: Record<string, string>;
  auth: string;
  user: FakeState['users'][number];
  base: string;
}

function answer(state: FakeState, name: CallName, { body, query, auth, user, base }: Ctx): unknown {
  const mine = (clientId: string) => {
    const c = state.clients.find((x) => x.stamp === clientId);
    if (!c) throw new HttpError(404, 'not_found', 'Client not found');
    if (!user.clients.includes(clientId)) throw new HttpError(403, 'forbidden', 'Forbidden');
    return c;
  };
  const bucketOf = (stamp: string) => {
    const b = state.buckets.find((x) => x.stamp === stamp && x.active);
    if (!b) throw new HttpError(404, 'not_found', 'Project not found');
    mine(b.client);
    return b;
  };
  const clean = <T extends object>(o: T, ...drop: string[]) => Object.fromEntries(Object.entries(o).filter(([k]) => !drop.includes(k)));
  const bucketView = (b: FakeState['buckets'][number]) => ({
    ...clean(b, 'client', 'active'),
    runs: state.runs.filter((r) => r.bucket === b.stamp && r.active).length,
    rends: state.rends.filter((r) => r.bucket === b.stamp && r.active).length,
  }) as Bucket;
  const rendView = (r: FakeState['rends'][number]) => clean(r, 'bucket', 'active');
  const runView = (r: FakeState['runs'][number]) => clean(r, 'bucket', 'active', 'url');
  const find = <T extends { stamp: string }>(list: T[], stamp: string, what: string) => {
    const x = list.find((i) => i.stamp === stamp);
    if (!x) throw new HttpError(404, 'not_found', `${what} not found`);
    return x;
  };
  const key = (list: { clue: string }[], clue: string) => {
    const k = list.find((i) => i.clue === clue);
    if (!k) throw new HttpError(404, 'not_found', 'Key not found');
    return k;
  };
  const title = (n: unknown) => {
    if (typeof n !== 'string' || n.trim().length < 1 || n.trim().length > 60) throw new HttpError(400, 'invalid_input', 'name: Title must be between 1 and 60 characters long');
    return n.trim();
  };
  const login = (u: FakeState['users'][number]) => ({
    login: { client: { list: state.clients.filter((c) => u.clients.includes(c.stamp)) }, bucket: { list: state.buckets.filter((b) => u.clients.includes(b.client) && b.active).map(bucketView) } },
    token: fakeToken(u.username, u.email),
  });
  switch (name) {
    case 'health':
      return { ok: true };
    case 'login': {
      const [email, password] = Buffer.from(auth.replace(/^Basic /, ''), 'base64').toString().split(':');
      const u = state.users.find((x) => x.email === email && x.password === password);
      if (!u) throw new HttpError(401, 'unauthorized', 'Invalid credentials');
      return login(u);
    }
    case 'signup': {
      if (state.users.some((x) => x.email === body.email)) throw new HttpError(409, 'conflict', 'This email is already registered.');
      const c: Client = { stamp: id('cli'), name: body.name, plan: 'Individual', choice: 'Cloud', active: 1 };
      state.clients.push(c);
      const u = { email: body.email, password: body.password, username: body.username, clients: [c.stamp] };
      state.users.push(u);
      return login(u);
    }
    case 'resetStart':
    case 'resetFinish':
      return { ok: true };
    case 'refresh':
      return { token: fakeToken(user.username, user.email) };
    case 'permissions':
      return { permission: { list: state.clients.filter((c) => user.clients.includes(c.stamp)).map((client) => ({ client, createdAt: 1_700_000_000 })) } };
    case 'apikeyList':
      return { client: { list: [mine(query.client)] }, apikey: { list: state.keys.filter((k) => k.client === query.client).map((k) => clean(k, 'client')) } };
    case 'apikeyCreate': {
      mine(body.client);
      const k = { clue: id('key'), name: title(body.name), token: `tok_${id('t')}`, installs: 0, installedAt: null, active: 1 as const, createdAt: now(), pack: { linux64: 'portal_client-0.1.0-py3-none-any.whl' }, client: body.client };
      state.keys.push(k);
      return { apikey: clean(k, 'client') };
    }
    case 'apikeyRename': {
      const k = key(state.keys, body.apikey) as FakeState['keys'][number];
      k.name = title(body.name);
      return { apikey: clean(k, 'client') };
    }
    case 'apikeyRemove':
      (key(state.keys, body.apikey) as FakeState['keys'][number]).active = 0;
      return { ok: true };
    case 'integrationList':
      return { client: { list: [mine(query.client)] }, apikey: { list: state.integrations.filter((k) => k.client === query.client).map((k) => clean(k, 'client')) } };
    case 'integrationCreate': {
      mine(body.client);
      const k = { clue: id('int'), name: title(body.name), service: 'OpenAI' as const, token: `sk-•••${String(body.token).slice(-4)}`, runs: 0, runAt: null, active: 1 as const, createdAt: now(), client: body.client };
      state.integrations.push(k);
      return { apikey: clean(k, 'client') };
    }
    case 'integrationRename': {
      const k = key(state.integrations, body.apikey) as FakeState['integrations'][number];
      k.name = title(body.name);
      return { apikey: clean(k, 'client') };
    }
    case 'integrationRemove':
      (key(state.integrations, body.apikey) as FakeState['integrations'][number]).active = 0;
      return { ok: true };
    case 'bucketList':
      return { client: { list: [mine(query.client)] }, bucket: { list: state.buckets.filter((b) => b.client === query.client && b.active).map(bucketView) } };
    case 'bucketCreate': {
      mine(body.client);
      const b = { stamp: id('bkt'), name: title(body.name), runs: 0, rends: 0, createdAt: now(), client: body.client, active: 1 };
      state.buckets.push(b);
      return { bucket: bucketView(b) };
    }
    case 'bucketRename': {
      const b = bucketOf(body.bucket);
      b.name = title(body.name);
      return { bucket: bucketView(b) };
    }
    case 'bucketRemove':
      bucketOf(body.bucket).active = 0;
      return { ok: true };
    case 'clientModelList': {
      const b = bucketOf(query.bucket);
      return { client: mine(b.client), bucket: bucketView(b), model: { list: state.models.filter((m) => m.bucket === b.stamp && m.active).map((m) => clean(m, 'bucket', 'active')) } };
    }
    case 'generalModelList':
      return { model: { list: state.general } };
    case 'modelRename': {
      const m = find(state.models, body.model, 'Model');
      m.name = title(body.name);
      return { model: clean(m, 'bucket', 'active') };
    }
    case 'modelRemove':
      find(state.models, body.model, 'Model').active = 0;
      return { ok: true };
    case 'runList': {
      const b = bucketOf(query.bucket);
      return { client: mine(b.client), bucket: bucketView(b), run: { list: state.runs.filter((r) => r.bucket === b.stamp && r.active).map(runView) } };
    }
    case 'runRename': {
      const r = find(state.runs, body.run, 'Request');
      r.name = title(body.name);
      return { run: runView(r) };
    }
    case 'runRemove':
      find(state.runs, body.run, 'Request').active = 0;
      return { ok: true };
    case 'runStatus': {
      const r = state.runs.find((x) => x.stamp === query.run && x.active);
      if (!r) throw new HttpError(404, 'not_found', 'Request not found');
      const b = bucketOf(r.bucket);
      return { client: mine(b.client), bucket: bucketView(b), run: { record: runView(r), url: r.url } };
    }
    case 'rendList': {
      const b = bucketOf(query.bucket);
      // As the real server: the account and the project come with the list.
      return { client: mine(b.client), bucket: bucketView(b), rend: { list: state.rends.filter((r) => r.bucket === b.stamp && r.active).map(rendView) } };
    }
    case 'rendCreate': {
      bucketOf(body.bucket);
      const r = { stamp: id('rnd'), name: title(body.name), flight: 'Pending' as const, createdAt: now(), runs: 0, upload: { list: [] }, box: { list: [] }, bucket: body.bucket, active: 1 };
      state.rends.push(r);
      return { rend: rendView(r) };
    }
    case 'rendFinish': {
      const r = find(state.rends, body.rend, 'Upload');
      r.flight = 'Ready';
      return { rend: rendView(r) };
    }
    case 'rendRename': {
      const r = find(state.rends, body.rend, 'Upload');
      r.name = title(body.name);
      return { rend: rendView(r) };
    }
    case 'rendRemove':
      find(state.rends, body.rend, 'Upload').active = 0;
      return { ok: true };
    case 'uploadRegister': {
      const r = find(state.rends, body.rend, 'Upload');
      const client = state.clients.find((c) => c.stamp === state.buckets.find((b) => b.stamp === r.bucket)?.client)!;
      if (body.file.size > PLAN_LIMITS[client.plan].maxFileSize) throw new HttpError(413, 'too_large', 'One or more files exceed the max size limit.');
      const item = { stamp: id('upl'), name: body.name, state: 'Pending' as const, file: body.file, meta: { proc: 0 as const, cols: null, rows: null, inputs: null, error: null }, error: null, createdAt: now() };
      r.upload.list.push(item);
      return { upload: { ...item, url: `${base}${STORAGE_PATH_PREFIX}${item.stamp}` } };
    }
    case 'uploadFinish': {
      const item = state.rends.flatMap((r) => r.upload.list).find((i) => i.stamp === body.upload);
      if (!item) throw new HttpError(404, 'not_found', 'Upload not found');
      const got = state.stored[item.stamp];
      if (!got || got.sha256 !== item.file.checksum) throw new HttpError(409, 'conflict', 'The stored bytes do not match the checksum');
      Object.assign(item, { state: 'Finished', meta: { proc: 1, cols: 4, rows: 10, inputs: 40, error: null } });
      return { upload: item };
    }
    case 'pileCreate':
      bucketOf(body.bucket);
      return { pile: { stamp: id('pil'), variety: body.variety, param: body.param, createdAt: now() } };
    case 'runCreate': {
      const b = bucketOf(body.bucket);
      const rend = find(state.rends, body.rend, 'Upload');
      const r = { stamp: id('run'), name: title(body.name), desc: '', function: body.function, state: 'Finished', message: '', createdAt: now(), rend: { stamp: rend.stamp, name: rend.name }, fit: body.fit ?? null, bucket: b.stamp, active: 1, url: body.function === 'generate' ? `${base}/results/${rend.stamp}.json` : null };
      state.runs.push(r);
      return { run: runView(r) };
    }
    case 'shrinkCreate': {
      const b = bucketOf(body.bucket);
      const rend = find(state.rends, body.rend, 'Upload');
      const q = { stamp: id('quo'), name: title(body.name), desc: body.desc ?? '', function: 'shrink' as const, state: 'Unpaid', message: '', cent: 22, invoiceNum: 'INV-0001', createdAt: now(), rend: { stamp: rend.stamp, name: rend.name }, bucket: b.stamp, run: null };
      state.quotes.push(q);
      return { quote: clean(q, 'bucket', 'run') };
    }
    case 'quoteStatus': {
      const q = state.quotes.find((x) => x.stamp === query.quote);
      if (!q) throw new HttpError(404, 'not_found', 'Quote not found');
      const b = bucketOf(q.bucket);
      const run = q.run ? state.runs.find((r) => r.stamp === q.run) : null;
      return { client: mine(b.client), bucket: bucketView(b), quote: { record: clean(q, 'bucket', 'run'), run: run ? runView(run) : null } };
    }
    case 'billingStatus':
      mine(query.client);
      return { billing: state.billing };
  }
}

/** Adds a project with a Ready upload, a finished request and a model, for list tests. */
export function seedProject(state: FakeState, clientId = state.clients[0].stamp) {
  const bucket = { stamp: id('bkt'), name: 'Churn', runs: 0, rends: 0, createdAt: 1_700_000_000, client: clientId, active: 1 };
  state.buckets.push(bucket);
  const item = { stamp: id('upl'), name: 'data.json', state: 'Finished' as const, file: { checksum: 'a'.repeat(64), name: 'data.json', size: 2048 }, meta: { proc: 1 as const, cols: 4, rows: 10, inputs: 40, error: null }, error: null, createdAt: 1_700_000_000 };
  const rend = { stamp: id('rnd'), name: 'data.json', flight: 'Ready' as const, createdAt: 1_700_000_000, runs: 1, upload: { list: [item] }, box: { list: [] }, bucket: bucket.stamp, active: 1 };
  state.rends.push(rend);
  const run = { stamp: id('run'), name: 'First fit', desc: '', function: 'generate' as const, state: 'Finished', message: '', createdAt: 1_700_000_000, rend: { stamp: rend.stamp, name: rend.name }, fit: null, bucket: bucket.stamp, active: 1, url: null as string | null };
  state.runs.push(run);
  const model = { stamp: id('mod'), name: 'Churn model', desc: '', state: 'Finished', message: '', createdAt: 1_700_000_000, rend: { stamp: rend.stamp, name: rend.name }, bucket: bucket.stamp, active: 1 };
  state.models.push(model);
  return { bucket, rend, run, model };
}
