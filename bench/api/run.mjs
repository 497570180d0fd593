#!/usr/bin/env node
// API benchmark: GET /api/bucket/item with 100 projects and 32 connections. The portal on PostgreSQL and on its
// embedded database, against floors measured in the same run, each server in its own process: a hand-written
// Fastify + pg server doing the same work in three statements and in one (bench/api/floor.mjs), and a bare Fastify
// hello-world as a second reference. Prints product/floor ratios and p99.
// BENCH_LISTS=1 adds the lists at scale: 10,000 projects, uploads and requests, pages of 50 (bench/api/lists.mjs).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
export const serverMain = join(root, 'packages/server/dist/main.js');
const require = createRequire(join(root, 'packages/server/package.json'));
const pg = require('pg');

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
export const CONNECTIONS = 32;
const PROJECTS = 100;
const PG_URL = process.env.PG_BENCH_URL ?? process.env.PORTAL_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TARGET = { postgresRatio: 0.9, postgresP99: 30, embeddedRps: 800, embeddedP99: 50 };

export function startProcess(args, env, pattern) {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d) => {
      out += d.toString();
      const m = pattern.exec(out);
      if (m) resolve({ child, url: m[1] });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`process exited (${code}):\n${out}`)));
  });
}

export const stop = (p) =>
  new Promise((r) => {
    if (p.child.exitCode !== null) return r();
    p.child.once('exit', r);
    p.child.kill('SIGTERM');
  });

/** Resident memory of a process in MB, from /proc. */
export const rssMb = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

export function cannon(url, headers = {}, duration = DURATION, extra = {}) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration, headers, ...extra }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

/** A warm-up second, then the measurement; any non-2xx answer or error makes the figure worthless. */
export async function measure(label, url, headers) {
  await cannon(url, headers, 2);
  const r = await cannon(url, headers);
  if (r.non2xx || r.errors) throw new Error(`${label}: ${r.non2xx} non-2xx responses, ${r.errors} errors`);
  return { rps: r.requests.average, p99: r.latency.p99 };
}

export async function json(url, init) {
  const res = await fetch(url, init);
  const body = await res.json();
  if (!res.ok) throw new Error(`${init?.method ?? 'GET'} ${url}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

export async function signUp(base) {
  const n = `bench${randomBytes(4).toString('hex')}`;
  const signup = await json(`${base}/api/user/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `${n}@example.com`, username: n, password: 'Bench-pass1!', name: 'Bench Company' }),
  });
  return { token: signup.token, client: signup.login.client.list[0].stamp };
}

/** A user with 100 projects made through the API; returns the request the benchmark repeats. */
async function seed(base) {
  const { token, client } = await signUp(base);
  for (let i = 0; i < PROJECTS; i++) {
    await json(`${base}/api/bucket/item`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ client, name: `Project ${i + 1}` }),
    });
  }
  const path = `/api/bucket/item?active=1&client=${client}`;
  const list = await json(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (list.bucket.list.length !== PROJECTS) throw new Error(`expected ${PROJECTS} projects, got ${list.bucket.list.length}`);
  return { path, headers: { authorization: `Bearer ${token}` }, body: list };
}

export function startServer(env) {
  return startProcess(
    [serverMain],
    { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', PORTAL_WORKER: '0', AUTH_RATE_LIMIT: '100000', ...env },
    /Portal running at (http:\/\/\S+)/,
  );
}

export async function pgDatabase() {
  const name = `portal_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** One floor server on the same database, checked to answer exactly the portal's JSON, then measured. */
async function measureFloor(mode, env, target) {
  const floor = await startProcess([join(here, 'floor.mjs')], { ...env, FLOOR_MODE: mode }, /listening (http:\/\/\S+)/);
  try {
    const body = await json(`${floor.url}${target.path}`, { headers: target.headers });
    if (JSON.stringify(body) !== JSON.stringify(target.body))
      throw new Error(`the ${mode}-statement floor answers other JSON than the portal`);
    return await measure(`floor (${mode})`, `${floor.url}${target.path}`, target.headers);
  } finally {
    await stop(floor);
  }
}

async function measurePortal(label, env, target) {
  const server = await startServer(env);
  try {
    const t = target ?? (await seed(server.url));
    return { target: t, result: await measure(label, `${server.url}${t.path}`, t.headers) };
  } finally {
    await stop(server);
  }
}

const line = (label, r, extra = '') =>
  console.log(`  ${label.padEnd(38)} ${r.rps.toFixed(0).padStart(6)} req/s  p99 ${String(r.p99).padStart(4)} ms${extra}`);
const verdict = (pass) => (pass ? 'met' : 'NOT MET');

export async function run() {
  if (!existsSync(serverMain)) {
    const b = spawnSync(process.execPath, ['build.mjs'], { cwd: join(root, 'packages/server'), stdio: 'inherit' });
    if (b.status !== 0) throw new Error('building the server failed');
  }
  console.log(`api: GET /api/bucket/item, ${PROJECTS} projects, ${CONNECTIONS} connections, ${DURATION}s per measurement`);
  const hello = await startProcess([join(here, 'hello.mjs')], {}, /listening (http:\/\/\S+)/);
  let base;
  try {
    base = await measure('hello-world', hello.url);
  } finally {
    await stop(hello);
  }
  line('reference: fastify hello-world', base);

  const out = { ok: true, baseline: base };
  const db = await pgDatabase();
  let oneTrip = null;
  if (db) {
    try {
      const env = { DATABASE_URL: db.url, JWT_SECRET: randomBytes(32).toString('hex') };
      const dataDir = await mkdtemp(join(tmpdir(), 'portal-bench-'));
      try {
        const first = await measurePortal('postgres', { ...env, DATA_DIR: dataDir });
        const three = await measureFloor('three', env, first.target);
        oneTrip = await measureFloor('one', env, first.target);
        // The portal again, after the floors, so a machine that got busier or quieter shows in the figures.
        const { result: again } = await measurePortal('postgres', { ...env, DATA_DIR: dataDir }, first.target);
        const portal = { rps: (first.result.rps + again.rps) / 2, p99: Math.max(first.result.p99, again.p99) };
        line('floor: fastify + pg, 3 statements', three);
        line('floor: fastify + pg, 1 statement', oneTrip);
        const ratio = portal.rps / oneTrip.rps;
        const pass = ratio >= TARGET.postgresRatio && portal.p99 <= TARGET.postgresP99;
        out.ok &&= pass;
        line(
          'portal on PostgreSQL (mean of 2 runs)',
          portal,
          `  ${(portal.rps / three.rps).toFixed(2)}x 3-statement floor, ${ratio.toFixed(2)}x 1-statement floor (target ≥ ${TARGET.postgresRatio}x, p99 ≤ ${TARGET.postgresP99} ms: ${verdict(pass)})`,
        );
        Object.assign(out, { postgres: portal, floorThree: three, floorOne: oneTrip });
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    } finally {
      await db.drop();
    }
  } else {
    out.ok = false;
    console.log('  postgres  SKIPPED: PostgreSQL is unreachable at ' + PG_URL);
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'portal-bench-'));
  try {
    const { result: e } = await measurePortal('embedded', { DATA_DIR: dataDir });
    const pass = e.rps >= TARGET.embeddedRps && e.p99 <= TARGET.embeddedP99;
    out.ok &&= pass;
    const vs = oneTrip ? `  ${(e.rps / oneTrip.rps).toFixed(2)}x 1-statement floor,` : '';
    line(
      'portal on its embedded database',
      e,
      `${vs} (target ≥ ${TARGET.embeddedRps} req/s, p99 ≤ ${TARGET.embeddedP99} ms: ${verdict(pass)})`,
    );
    out.embedded = e;
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  if (process.env.BENCH_LISTS === '1') {
    const { runLists } = await import('./lists.mjs');
    out.ok = (await runLists()) && out.ok;
  }
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  run().then(
    (r) => process.exit(r.ok ? 0 : 1),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
