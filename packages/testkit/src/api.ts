// The real server for the clients' tests (core's hooks and pipeline, the terminal UI's commands and screens): the provider API on the embedded database, one per test
// file, with a fresh user (and account) for every test. The client talks to it through a small pass-through proxy
// that records which calls were made and can fail a chosen call, or hold the storage PUT, the way the web portal's
// browser tests inject failures; everything else is the real server's answer. States the product reaches only over
// time (a failed request, a paid quote, a result file) are written into the server's own database and storage.
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { ApiClient, memoryTokenStore, STORAGE_PATH_PREFIX, type CallName, type Plan } from '@portal/core';
import { CALLS, callTable } from '@portal/core/contract/table';
import { call, mailTo, startServer, type TestServer } from './harness';
import type { Config } from '@portal/server/config';
import { newModelRow, newQuoteRow, newRunRow } from '@portal/server/db';

export const PASSWORD = 'Secret-123!';

export interface TestUser {
  email: string;
  username: string;
  password: string;
  /** A real session token from the server. */
  token: string;
  /** The stamp of the account made at sign-up. */
  client: string;
  /** The account's name. */
  name: string;
}

export interface TestApi {
  /** Where clients connect: the pass-through proxy in front of the real server. */
  url: string;
  server: TestServer;
  /** Names of the calls made since this test began (plus 'storagePut' for each PUT of file bytes). */
  calls: string[];
  /**
   * Each request's path and Authorization header, in order: the server accepts an old and a refreshed token alike,
   * so only what was sent shows which one a client used.
   */
  sent: Array<{ path: string; authorization: string | undefined }>;
  /** Calls to answer with this HTTP status instead of passing them on. */
  failing: Partial<Record<CallName, number>>;
  /** Holds each storage PUT this long before passing it on (to cancel an upload in flight). */
  storageDelayMs: number;
  /**
   * Faults for the next `times` calls of one name ('storagePut' included): answered with `status` instead of being
   * passed on, or, with `lost`, passed on and answered by the server but the answer never reaches the client.
   */
  fail(call: CallName | 'storagePut', fault: { times?: number; status?: number; lost?: boolean }): void;
  /** This test's user, made fresh before each test. */
  user: TestUser;
  /** Signs up another user (with a new account of their own). */
  newUser(opts?: { name?: string; label?: string }): Promise<TestUser>;
  /** Before each test: forgets the recorded calls and injected failures, and signs up a fresh user. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

export interface TestApiOptions {
  worker?: boolean;
  /** Server settings for the file, e.g. `openaiBaseUrl` pointing at a stub. */
  server?: Partial<Config>;
}

const ROUTES = new Map(Object.entries(CALLS).map(([name, def]) => [`${def.method} ${def.path}`, name as CallName]));
let counter = 0;

/**
 * Starts the real server (worker included unless told otherwise) and the proxy in front of it; fills `into` when
 * given (withTestApi hands that object out before the server is up).
 */
export async function startTestApi(opts: TestApiOptions = {}, into?: TestApi): Promise<TestApi> {
  const server = await startServer('embedded', { ...opts.server, worker: opts.worker ?? true });
  const target = new URL(server.url);
  const faults: Fault[] = [];
  const api: TestApi = Object.assign(into ?? ({} as TestApi), {
    url: '',
    server,
    calls: [],
    sent: [],
    failing: {},
    storageDelayMs: 0,
    fail: (call, fault) => faults.push({ call, times: fault.times ?? 1, status: fault.status ?? 503, lost: !!fault.lost }),
    user: undefined as unknown as TestUser,
    newUser: (o) => newUser(api, o),
    reset: async () => {
      api.calls.length = 0;
      api.sent.length = 0;
      for (const k of Object.keys(api.failing)) delete api.failing[k as CallName];
      api.storageDelayMs = 0;
      faults.length = 0;
      api.user = await newUser(api);
    },
    close: async () => {
      const closed = new Promise<void>((r) => proxy.close(() => r()));
      proxy.closeAllConnections();
      await closed;
      await server.close();
    },
  } satisfies TestApi);
  const proxy = createServer((req, res) => void pass(api, faults, target, req, res));
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  api.url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  return api;
}

/**
 * The real server for every test of the calling file: started once, and before each test reset (a fresh user, no
 * recorded calls or injected faults).
 */
export function withTestApi(opts: TestApiOptions = {}): TestApi {
  const api = {} as TestApi;
  beforeAll(() => startTestApi(opts, api), 120_000);
  afterAll(() => api.close?.(), 60_000);
  beforeEach(() => api.reset());
  return api;
}

interface Fault {
  call: string;
  times: number;
  status: number;
  lost: boolean;
}

async function pass(api: TestApi, faults: Fault[], target: URL, req: IncomingMessage, res: ServerResponse) {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  const storage = path.startsWith(STORAGE_PATH_PREFIX);
  const name = storage ? 'storagePut' : ROUTES.get(`${req.method} ${path}`);
  if (name) api.calls.push(name);
  api.sent.push({ path, authorization: req.headers.authorization });
  const fault = faults.find((f) => f.call === name && f.times > 0);
  if (fault) fault.times--;
  const status = fault && !fault.lost ? fault.status : name && !storage ? api.failing[name as CallName] : undefined;
  if (status) {
    req.resume();
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 'internal', message: 'Simulated failure' } }));
    return;
  }
  if (storage && api.storageDelayMs) await new Promise((r) => setTimeout(r, api.storageDelayMs));
  // The Host header is kept: the server builds upload and download links from it, so they lead back here.
  const out = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
    if (fault?.lost) {
      // The server did the work; its answer is lost on the way back.
      answer.resume();
      answer.on('end', () => res.destroy());
      return;
    }
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  out.on('error', () => res.destroy());
  req.on('aborted', () => out.destroy());
  res.on('close', () => (res.writableFinished ? undefined : out.destroy()));
  req.pipe(out);
}

async function newUser(api: TestApi, opts: { name?: string; label?: string } = {}): Promise<TestUser> {
  const n = `${opts.label ?? 'ada'}${(counter++).toString(36)}${randomBytes(3).toString('hex')}`;
  const name = opts.name ?? 'Analytical Engines';
  const body = { email: `${n}@example.com`, username: n, password: PASSWORD, name };
  const r = await call<{ token: string; login: { client: { list: { stamp: string }[] } } }>(api.server.url, 'signup', { body });
  if (r.status !== 200) throw new Error(`sign-up failed: ${r.status} ${JSON.stringify(r.body)}`);
  return { email: body.email, username: n, password: PASSWORD, token: r.body.token, client: r.body.login.client.list[0].stamp, name };
}

/** Core's API client of the test server (through its proxy), signed in as the test's user unless given a token. */
export const apiClient = (api: TestApi, token = api.user.token) =>
  new ApiClient({ calls: callTable, baseUrl: api.url, tokens: memoryTokenStore(token) });

// ---- seeding: states reached over time, written into the server's own database and storage ----

const id = (prefix: string) => prefix + randomBytes(9).toString('base64url');
const db = (api: TestApi) => api.server.built.services.db;

export const T0 = 1_700_000_000;

/** Adds a project (to the current user's account unless told) holding nothing. */
export async function seedEmptyProject(api: TestApi, opts: { client?: string; name?: string } = {}) {
  const stamp = id('b_');
  await db(api)
    .insertInto('buckets')
    .values({ stamp, client: opts.client ?? api.user.client, name: opts.name ?? 'Churn', active: 1, created_at: T0 })
    .execute();
  return { stamp, name: opts.name ?? 'Churn' };
}

/**
 * Adds `count` projects at once ("Project 00001" oldest, one second apart, the last made now-ish), as a client with
 * thousands of them has: one statement, not `count` calls.
 */
export async function seedProjects(api: TestApi, count: number, opts: { client?: string; prefix?: string } = {}) {
  const prefix = opts.prefix ?? 'Project';
  const width = String(count).length;
  const name = (i: number) => `${prefix} ${String(i).padStart(width, '0')}`;
  const run = randomBytes(4).toString('hex');
  // A few statements of 2,000 rows (PostgreSQL takes at most 65,535 parameters in one).
  for (let from = 1; from <= count; from += 2_000) {
    const rows = Array.from({ length: Math.min(2_000, count - from + 1) }, (_, k) => from + k).map((i) => ({
      stamp: `b_many_${run}_${i}`,
      client: opts.client ?? api.user.client,
      name: name(i),
      active: 1,
      created_at: T0 + i,
    }));
    await db(api).insertInto('buckets').values(rows).execute();
  }
  return { name };
}

export interface SeedUpload {
  name?: string;
  flight?: 'Failed' | 'Pending' | 'Processing' | 'Ready';
  /** Items: name, state, size, meta (inputs etc.), errors. */
  items?: Array<{
    name?: string;
    state?: 'Failed' | 'Finished' | 'Pending' | 'Preparing';
    size?: number;
    rows?: number;
    cols?: number;
    inputs?: number;
    proc?: 0 | 1 | 2;
    metaError?: string | null;
    error?: string | null;
  }>;
  createdAt?: number;
}

/** Adds an upload (a Ready group with one analysed file unless told otherwise) to a project. */
export async function seedUpload(api: TestApi, project: string, opts: SeedUpload = {}) {
  const stamp = id('r_');
  const name = opts.name ?? 'data.json';
  await db(api)
    .insertInto('rends')
    .values({ stamp, bucket: project, name, flight: opts.flight ?? 'Ready', active: 1, created_at: opts.createdAt ?? T0 })
    .execute();
  const items = opts.items ?? [{}];
  const stamps: string[] = [];
  for (const it of items) {
    const file = it.name ?? name;
    const item = id('f_');
    stamps.push(item);
    const state = it.state ?? 'Finished';
    const proc = it.proc ?? (state === 'Finished' ? 1 : state === 'Failed' ? 2 : 0);
    await db(api)
      .insertInto('uploads')
      .values({
        stamp: item,
        rend: stamp,
        name: file,
        state,
        checksum: 'a'.repeat(64),
        file_name: file,
        size: it.size ?? 2048,
        proc,
        cols: proc === 1 ? (it.cols ?? 4) : null,
        rows: proc === 1 ? (it.rows ?? 10) : null,
        inputs: proc === 1 ? (it.inputs ?? 40) : null,
        meta_error: it.metaError ?? null,
        error: it.error ?? null,
        stored: 1,
        created_at: opts.createdAt ?? T0,
      })
      .execute();
  }
  return { stamp, name, items: stamps };
}

/** What a request, a model and a quote are each told: its name, description, state and state's message. */
interface SeedCommon {
  name?: string;
  desc?: string;
  state?: string;
  message?: string;
}

/** The columns a request, a model and a quote share: a fresh id, the project and upload it is made on, what it was told. */
const commonColumns = (prefix: string, project: string, upload: string | null, opts: SeedCommon, name: string, state: string) => ({
  stamp: id(prefix),
  bucket: project,
  rend: upload,
  name: opts.name ?? name,
  desc: opts.desc ?? '',
  state: opts.state ?? state,
  message: opts.message ?? '',
});

export interface SeedRun extends SeedCommon {
  function?: 'fit' | 'generate' | 'shrink';
  /** A result file (JSON text) the run's download link serves; only a Finished run shows the link. */
  result?: string;
  createdAt?: number;
}

/** Adds a request on an upload. */
export async function seedRun(api: TestApi, project: string, upload: string | null, opts: SeedRun = {}) {
  const common = commonColumns('u_', project, upload, opts, 'First fit', 'Finished');
  let resultKey: string | null = null;
  if (opts.result !== undefined) {
    resultKey = `results/${common.stamp}.json`;
    const dir = await mkdtemp(join(tmpdir(), 'portal-seed-'));
    await writeFile(join(dir, 'r.json'), opts.result);
    await api.server.built.services.storage.putFile(resultKey, join(dir, 'r.json'));
    await rm(dir, { recursive: true, force: true });
  }
  const row = newRunRow({
    ...common,
    function: opts.function ?? 'generate',
    result_key: resultKey,
    inputs: 40,
    created_at: opts.createdAt ?? T0,
  });
  await db(api).insertInto('runs').values(row).execute();
  return { stamp: row.stamp, name: row.name };
}

/** Adds one of the client's own models. */
export async function seedModel(api: TestApi, project: string, upload: string | null, opts: SeedCommon = {}) {
  const row = newModelRow({ ...commonColumns('m_', project, upload, opts, 'Churn model', 'Finished'), created_at: T0 });
  await db(api).insertInto('models').values(row).execute();
  return { stamp: row.stamp, name: row.name };
}

export interface SeedQuote extends SeedCommon {
  cent?: number;
  /** The request a paid quote started. */
  run?: string | null;
  /** Invoice numbers are unique on the server: a fresh one unless told. */
  invoiceNum?: string;
}

/** Adds a shrink quote on an upload (Unpaid unless told), with its own invoice number. */
export async function seedQuote(api: TestApi, project: string, upload: string | null, opts: SeedQuote = {}) {
  const invoiceNum = opts.invoiceNum ?? `INV-${randomBytes(4).toString('hex').toUpperCase()}`;
  const row = newQuoteRow({
    ...commonColumns('q_', project, upload, opts, 'Shrink it', 'Unpaid'),
    run: opts.run ?? null,
    cent: opts.cent ?? 22,
    invoice_num: invoiceNum,
    inputs: 40,
    created_at: T0,
    paid_at: opts.state === 'Paid' ? T0 : null,
  });
  await db(api).insertInto('quotes').values(row).execute();
  return { stamp: row.stamp, name: row.name, invoiceNum };
}

/** A project with a Ready upload, a finished request and a model, for list tests. */
export async function seedProject(api: TestApi, client = api.user.client) {
  const project = await seedEmptyProject(api, { client });
  const upload = await seedUpload(api, project.stamp);
  const run = await seedRun(api, project.stamp, upload.stamp);
  const model = await seedModel(api, project.stamp, upload.stamp);
  return { project, upload, run, model };
}

type Table = 'runs' | 'models' | 'quotes' | 'rends' | 'uploads' | 'buckets' | 'clients';

/** Changes a row the way the server's worker or an operator would (a request finishing, a quote paid, a new plan). */
export async function setRow(api: TestApi, table: Table, stamp: string, patch: Record<string, unknown>) {
  await db(api)
    .updateTable(table)
    .set(patch as never)
    .where('stamp', '=', stamp)
    .execute();
}

/** Puts an account on a plan. */
export const setPlan = (api: TestApi, client: string, plan: Plan) => setRow(api, 'clients', client, { plan });

/** Gives the user access to another account (as a second membership). */
export async function addAccount(api: TestApi, user: TestUser, name: string, plan: Plan = 'Enterprise') {
  const stamp = id('c_');
  await db(api)
    .insertInto('clients')
    .values({ stamp, name, plan, choice: 'Premise', active: 1, credit_total: 0, credit_used: 0, created_at: T0 })
    .execute();
  const u = await db(api).selectFrom('users').select('stamp').where('username', '=', user.username).executeTakeFirstOrThrow();
  await db(api).insertInto('permissions').values({ user_stamp: u.stamp, client_stamp: stamp, created_at: T0, role: 'owner' }).execute();
  return { stamp, name };
}

/** A user's id. */
export async function userStamp(api: TestApi, user: TestUser): Promise<string> {
  return (await db(api).selectFrom('users').select('stamp').where('username', '=', user.username).executeTakeFirstOrThrow()).stamp;
}

/** Makes `who` a member (or owner) of `client`, as an accepted invitation does; returns their user id. */
export async function addMember(api: TestApi, client: string, who: TestUser, role: 'owner' | 'member' = 'member') {
  const user = await userStamp(api, who);
  await db(api)
    .insertInto('permissions')
    .values({ user_stamp: user, client_stamp: client, created_at: Math.floor(Date.now() / 1000), role })
    .execute();
  return user;
}

/** Reads rows straight from the server's database, for assertions on what a command did. */
export const rows = (api: TestApi) => db(api);

/** The token of the newest invitation mailed to this address (the embedded mailer's outbox; mail goes out in the background). */
export async function invitationToken(api: TestApi, email: string): Promise<string> {
  const m = /\/invite\?token=(\S+)/.exec(await mailTo(api.server.dataDir, email));
  if (!m) throw new Error(`No invitation link in the mail to ${email}`);
  return decodeURIComponent(m[1]);
}

/** `owner` invites `email` into their account through the real API (the mail goes to the outbox). */
export async function invite(api: TestApi, owner: TestUser, email: string, role: 'owner' | 'member' = 'member'): Promise<void> {
  const r = await call(api.server.url, 'inviteCreate', { token: owner.token, body: { client: owner.client, email, role } });
  if (r.status !== 200) throw new Error(`invite failed: ${r.status} ${JSON.stringify(r.body)}`);
}
