// Test harness: real servers on real databases (a cloned embedded data dir, or a fresh PostgreSQL database per file),
// started in-process from the server's own modules (or the built one in a process of its own: built.mjs), and the
// route table's calls over HTTP.
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { isFinalState, type CallName } from '@portal/core';
import { CALLS } from '@portal/core/contract/table';
import { buildApp, type BuiltApp } from '@portal/server/app';
import { loadConfig, type Config } from '@portal/server/config';
import { openDatabase } from '@portal/server/db';

export { startBuilt } from './built.mjs';

/** The server package's folder (its sources, migrations, build and dependencies). */
export const serverRoot = dirname(createRequire(import.meta.url).resolve('@portal/server/package.json'));
export const PG_ADMIN_URL =
  process.env.PORTAL_TEST_DATABASE_URL ?? process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A migrated embedded data dir, made once per migration set and copied for each test server (initdb takes seconds). */
async function embeddedTemplate(): Promise<string> {
  const migrations = readFileSync(join(serverRoot, 'src/db/migrations.ts'));
  // A new engine version may change the on-disk format: it gets its own template.
  const engine = readFileSync(join(serverRoot, 'node_modules/@electric-sql/pglite/package.json'));
  const id = createHash('sha256').update(migrations).update(engine).digest('hex').slice(0, 12);
  const cache = join(serverRoot, 'node_modules/.cache/portal-pglite');
  const template = join(cache, id);
  if (await exists(join(template, 'ready'))) return template;
  await mkdir(cache, { recursive: true });
  const lock = join(cache, `${id}.lock`);
  try {
    await mkdir(lock);
  } catch {
    // Another test file is making it: wait for it.
    for (let i = 0; i < 600; i++) {
      if (await exists(join(template, 'ready'))) return template;
      await new Promise((r) => setTimeout(r, 100));
    }
    await rm(lock, { recursive: true, force: true });
    return embeddedTemplate();
  }
  try {
    const work = join(cache, `${id}.${randomBytes(4).toString('hex')}`);
    const db = await openDatabase({ dataDir: work });
    await db.close();
    await mkdir(join(work, 'ready'));
    await rename(work, template);
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
  return template;
}

async function exists(p: string) {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}

/** A data dir holding a migrated embedded database, ready to open. */
export async function freshDataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'portal-test-'));
  await cp(join(await embeddedTemplate(), 'db'), join(dir, 'db'), { recursive: true });
  return dir;
}

export async function postgresReachable(): Promise<boolean> {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

/** The URL of database `name` on the test PostgreSQL server. */
function pgUrl(name: string): string {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `work` with a connection to the test PostgreSQL server's admin database. */
async function withAdmin<T>(work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

/**
 * A migrated PostgreSQL database to copy (CREATE DATABASE ... TEMPLATE), made once per migration set like the
 * embedded template: migrating a new database took about 3 s of DDL, a copy a quarter of a second. It is built
 * under a name of its own and renamed when done, so a copy never sees it half made; nothing else connects to it.
 */
async function pgTemplate(): Promise<string> {
  const id = createHash('sha256')
    .update(readFileSync(join(serverRoot, 'src/db/migrations.ts')))
    .digest('hex')
    .slice(0, 12);
  const name = `portal_template_${id}`;
  const exists = () => withAdmin(async (a) => (await a.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1);
  if (await exists()) return name;
  const work = `portal_template_${id}_${randomBytes(4).toString('hex')}`;
  await withAdmin((a) => a.query(`create database ${work}`));
  const dataDir = await mkdtemp(join(tmpdir(), 'portal-template-'));
  try {
    const db = await openDatabase({ dataDir, databaseUrl: pgUrl(work) });
    await db.close();
    // Another test file may have finished one first: then this one goes.
    await withAdmin((a) => a.query(`alter database ${work} rename to ${name}`)).catch(async (err) => {
      if (!(await exists())) throw err;
    });
  } finally {
    await withAdmin((a) => a.query(`drop database if exists ${work} with (force)`));
    await rm(dataDir, { recursive: true, force: true });
  }
  return name;
}

/** A new PostgreSQL database holding the current schema (a copy of the template), and a way to drop it. */
export async function createPgDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `portal_test_${randomBytes(6).toString('hex')}`;
  const template = await pgTemplate();
  await withAdmin((a) => a.query(`create database ${name} template ${template}`));
  return {
    url: pgUrl(name),
    drop: () => withAdmin(async (a) => void (await a.query(`drop database if exists ${name} with (force)`))),
  };
}

export type DbKind = 'embedded' | 'postgres';

/**
 * The database kinds to run a suite on. PostgreSQL is skipped with a notice when unreachable, except under CI,
 * where it must run (the suite then fails loudly).
 */
export async function dbKinds(): Promise<DbKind[]> {
  if (await postgresReachable()) return ['embedded', 'postgres'];
  if (process.env.CI) return ['embedded', 'postgres'];
  console.warn(`\n*** PostgreSQL at ${PG_ADMIN_URL} is unreachable: the PostgreSQL variant of the server tests is SKIPPED. ***\n`);
  return ['embedded'];
}

export interface TestServer {
  url: string;
  /** GET /metrics of this server (its own METRICS_PORT on loopback), or null when started with metrics off. */
  metricsUrl: string | null;
  built: BuiltApp;
  config: Config;
  dataDir: string;
  close(): Promise<void>;
}

export async function startServer(kind: DbKind, overrides: Partial<Config> = {}): Promise<TestServer> {
  const dataDir = kind === 'embedded' ? await freshDataDir() : await mkdtemp(join(tmpdir(), 'portal-test-'));
  const pgdb = kind === 'postgres' ? await createPgDatabase() : null;
  const env = { JWT_SECRET: testSecret(), ...(pgdb ? { DATABASE_URL: pgdb.url } : {}) };
  return listening(loadConfig(env, { ...TEST_SETTINGS, dataDir, ...overrides }), async () => {
    await pgdb?.drop();
  });
}

/** A signing key as the server requires one (32 bytes at least), new for each server under test. */
export const testSecret = () => randomBytes(32).toString('base64url');

/**
 * What every server under test shares: any free port on loopback (metrics too, so servers started at once never
 * fight for 9464), no log, no rate limit in the way, a short shutdown and no drain.
 */
const TEST_SETTINGS = {
  port: 0,
  host: '127.0.0.1',
  metricsPort: 0,
  logLevel: 'silent',
  authRateLimit: 1000,
  shutdownS: 2,
  drainS: 0,
  // An answer that does not match its call's response schema fails the test that made the call.
  checkAnswers: true,
} satisfies Partial<Config>;

/** Builds and starts the app; close() stops it, runs `cleanup`, then removes its data folder. */
async function listening(config: Config, cleanup: () => Promise<void> = async () => {}): Promise<TestServer> {
  const built = await buildApp(config);
  const address = await built.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: address,
    metricsUrl: built.metricsUrl,
    built,
    config,
    dataDir: config.dataDir,
    async close() {
      await built.close();
      await cleanup();
      await rm(config.dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A second API process on the same PostgreSQL database (scale-out): its own app, data folder and memory, the same
 * signing and encryption keys. Only PostgreSQL takes several processes; the embedded database belongs to one.
 */
export async function startPeer(first: TestServer, overrides: Partial<Config> = {}): Promise<TestServer> {
  if (!first.config.databaseUrl) throw new Error('A second API process needs PostgreSQL');
  const dataDir = await mkdtemp(join(tmpdir(), 'portal-test-'));
  const env = {
    DATABASE_URL: first.config.databaseUrl,
    JWT_SECRET: first.config.jwtSecret,
    ENCRYPTION_KEY: first.config.encryptionKeys.join(','),
  };
  return listening(loadConfig(env, { ...TEST_SETTINGS, dataDir, worker: false, ...overrides }));
}

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** One call of the route table over HTTP, by name. */
export async function call<T = any>(
  base: string,
  name: CallName,
  opts: { query?: Record<string, unknown>; body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<Reply<T>> {
  const def = CALLS[name];
  const url = new URL(def.path, base);
  for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined;
  if (opts.body !== undefined && def.method !== 'GET') {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const res = await fetch(url, { method: def.method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  // Every successful answer in every test must match the call's response schema in core's contract.
  if (res.ok) {
    const check = def.response.safeParse(parsed);
    if (!check.success) throw new Error(`${name} answered a body outside its contract: ${check.error.message}\n${text.slice(0, 500)}`);
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

let counter = 0;
export const PASSWORD = 'Sup3r-secret!';

export async function signup(base: string, label = 'user') {
  const n = `${label}${Date.now().toString(36)}${counter++}${randomBytes(2).toString('hex')}`.slice(0, 30);
  const r = await call(base, 'signup', { body: { email: `${n}@example.com`, username: n, password: PASSWORD, name: `Company ${n}` } });
  if (r.status !== 200) throw new Error(`signup failed: ${r.status} ${JSON.stringify(r.body)}`);
  return {
    token: r.body.token as string,
    client: r.body.login.client.list[0].stamp as string,
    email: `${n}@example.com`,
    username: n,
    user: r.body.login.user.stamp as string,
  };
}

/** Asks for a password-reset mail with this Host header (a forged one must not decide where its link points). */
export const resetStartWithHost = (server: TestServer, email: string, host: string) =>
  server.built.app.inject({
    method: 'POST',
    url: CALLS.resetStart.path,
    headers: { host, 'content-type': 'application/json' },
    payload: { email },
  });

/** Makes `user` a member of `client` straight in the database, as an accepted invitation would. */
export async function addMember(server: TestServer, user: string, client: string): Promise<void> {
  await server.built.services.db
    .insertInto('permissions')
    .values({ user_stamp: user, client_stamp: client, created_at: Math.floor(Date.now() / 1000), role: 'member' })
    .execute();
}

/** A regression fit through the API on a Ready upload: its parameters of these sizes, then the run, as answered. */
export async function fitThroughApi(
  base: string,
  token: string,
  at: { project: string; upload: string; name: string },
  sizes: { inputs: number; outputs: number },
) {
  const param = { explainability: false, input_column_size: sizes.inputs, output_column_size: sizes.outputs, task_target_size: 1 };
  const pile = await call(base, 'pileCreate', {
    token,
    body: { bucket: at.project, variety: 'FitModel', param: { ...param, task: 'regression' } },
  });
  const body = { bucket: at.project, function: 'fit', rend: at.upload, pile: pile.body.pile.stamp, name: at.name };
  return (await call(base, 'runCreate', { token, body })).body.run;
}

/** A generate request through the API: a trained fit applied to a Ready upload; the run, as answered. */
export async function generateThroughApi(base: string, token: string, at: { project: string; upload: string; fit: string; name: string }) {
  const body = { bucket: at.project, function: 'generate', rend: at.upload, fit: at.fit, name: at.name };
  return (await call(base, 'runCreate', { token, body })).body.run;
}

/** Waits until a request is final (Finished or Failed); its status then, as answered. */
export function finalRun(base: string, token: string, run: string) {
  return waitFor(async () => {
    const status = CALLS.runStatus.response.parse((await call(base, 'runStatus', { token, query: { run } })).body).run;
    return isFinalState(status.record.state) ? status : null;
  });
}

export const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');

/** Creates an upload with these files, sends the bytes, finishes it, and waits until its flight settles. */
export async function uploadFiles(base: string, token: string, project: string, files: Array<{ name: string; bytes: Buffer }>) {
  const made = await call(base, 'rendCreate', { token, body: { bucket: project, name: files[0].name } });
  if (made.status !== 200) throw new Error(`upload create: ${JSON.stringify(made.body)}`);
  const items = [];
  for (const f of files) {
    const reg = await call(base, 'uploadRegister', {
      token,
      body: { rend: made.body.rend.stamp, name: f.name, file: { name: f.name, size: f.bytes.length, checksum: sha256(f.bytes) } },
    });
    if (reg.status !== 200) throw new Error(`register: ${JSON.stringify(reg.body)}`);
    // Browsers send the file's own type; the storage endpoint must take the bytes as they are, whatever it says.
    const type = f.name.endsWith('.json') ? 'application/json' : 'application/octet-stream';
    const put = await fetch(reg.body.upload.url, { method: 'PUT', body: new Uint8Array(f.bytes), headers: { 'content-type': type } });
    if (!put.ok) throw new Error(`put: ${put.status} ${await put.text()}`);
    const fin = await call(base, 'uploadFinish', { token, body: { upload: reg.body.upload.stamp } });
    if (fin.status !== 200) throw new Error(`finish: ${JSON.stringify(fin.body)}`);
    items.push(reg.body.upload.stamp as string);
  }
  await call(base, 'rendFinish', { token, body: { rend: made.body.rend.stamp } });
  const settled = await waitFor(async () => {
    const list = await call(base, 'rendList', { token, query: { bucket: project, active: 1 } });
    const r = list.body.rend.list.find((x: any) => x.stamp === made.body.rend.stamp);
    return r && (r.flight === 'Ready' || r.flight === 'Failed') ? r : null;
  });
  return { upload: settled, items };
}

export async function waitFor<T>(fn: () => Promise<T | null | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('Timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A fit data file: rows of `inputs` numbers followed by one target. */
export function fitData(rows = 40, inputs = 3): Buffer {
  const data = Array.from({ length: rows }, (_, i) => {
    const xs = Array.from({ length: inputs }, (_, j) => Math.round(Math.sin(i * (j + 1)) * 1000) / 1000);
    return [...xs, xs.reduce((a, b) => a + b, 0)];
  });
  return Buffer.from(JSON.stringify(data));
}

export { CALLS };

/**
 * An outbox file (the RFC 5322 message nodemailer built) as a person reads it: the headers as they are, then the
 * body with its transfer encoding (quoted-printable for long lines, base64) undone.
 */
export function mailText(raw: string): string {
  const at = raw.indexOf('\n\n') + 2;
  const head = raw.slice(0, at);
  const encoding = /^Content-Transfer-Encoding: *(\S+)/im.exec(head)?.[1].toLowerCase();
  const body = raw.slice(at);
  if (encoding === 'base64') return head + Buffer.from(body, 'base64').toString('utf8');
  if (encoding !== 'quoted-printable') return raw;
  const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  return head + Buffer.from(bytes, 'latin1').toString('utf8');
}

/** Every mail the embedded mailer wrote to DATA_DIR/outbox for this address, oldest first (file names start with the time). */
export async function mailsTo(dataDir: string, email: string): Promise<string[]> {
  const outbox = join(dataDir, 'outbox');
  const files = (await readdir(outbox).catch(() => [] as string[])).sort();
  const mails = await Promise.all(files.map(async (f) => mailText(await readFile(join(outbox, f), 'utf8'))));
  return mails.filter((m) => m.includes(`To: ${email}\n`));
}

/** The newest mail for this address, once there are more than `seen` of them (mail is sent in the background). */
export const mailTo = (dataDir: string, email: string, seen = 0) =>
  waitFor(async () => {
    const mails = await mailsTo(dataDir, email);
    return mails.length > seen ? mails[mails.length - 1] : null;
  });
