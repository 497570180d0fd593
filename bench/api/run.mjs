#!/usr/bin/env node
// API benchmark: GET /api/bucket/item with 100 projects and 32 connections, against a bare Fastify hello-world
// measured in the same run; prints the throughput ratio and p99 on PostgreSQL and on the embedded database.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import autocannon from 'autocannon';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const serverMain = join(root, 'packages/server/dist/main.js');
const require = createRequire(join(root, 'packages/server/package.json'));
const pg = require('pg');

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 32;
const PROJECTS = 100;
const PG_URL = process.env.PG_BENCH_URL ?? process.env.PORTAL_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TARGET_RATIO = 0.2;
const TARGET_P99_MS = 30;

function startProcess(args, env, pattern) {
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

const stop = (p) =>
  new Promise((r) => {
    p.child.once('exit', r);
    p.child.kill('SIGTERM');
  });

function cannon(url, headers = {}) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

async function json(url, init) {
  const res = await fetch(url, init);
  const body = await res.json();
  if (!res.ok) throw new Error(`${init?.method ?? 'GET'} ${url}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** A user with 100 projects; returns the request the benchmark repeats. */
async function seed(base) {
  const n = `bench${Date.now().toString(36)}`;
  const signup = await json(`${base}/api/user/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `${n}@example.com`, username: n, password: 'Bench-pass1!', name: 'Bench Company' }),
  });
  const token = signup.token;
  const client = signup.login.client.list[0].stamp;
  for (let i = 0; i < PROJECTS; i++) {
    await json(`${base}/api/bucket/item`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ client, name: `Project ${i + 1}` }),
    });
  }
  const list = await json(`${base}/api/bucket/item?active=1&client=${client}`, { headers: { authorization: `Bearer ${token}` } });
  if (list.bucket.list.length !== PROJECTS) throw new Error(`expected ${PROJECTS} projects, got ${list.bucket.list.length}`);
  return { url: `${base}/api/bucket/item?active=1&client=${client}`, headers: { authorization: `Bearer ${token}` } };
}

async function measureServer(label, env) {
  const dataDir = await mkdtemp(join(tmpdir(), 'portal-bench-'));
  const server = await startProcess(
    [serverMain],
    {
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      PORTAL_WORKER: '0',
      AUTH_RATE_LIMIT: '1000',
      METRICS_PORT: '0',
      PORTAL_DRAIN_S: '0',
      ...env,
    },
    /Portal running at (http:\/\/\S+)/,
  );
  try {
    const target = await seed(server.url);
    await cannon(target.url, target.headers).catch(() => {}); // warm-up is the first second of a short run
    const res = await cannon(target.url, target.headers);
    if (res.non2xx || res.errors) throw new Error(`${label}: ${res.non2xx} non-2xx responses, ${res.errors} errors`);
    return res;
  } finally {
    await stop(server);
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function pgDatabase() {
  const name = `portal_bench_${Date.now().toString(36)}`;
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

export async function run() {
  if (!existsSync(serverMain)) {
    const b = spawnSync(process.execPath, ['build.mjs'], { cwd: join(root, 'packages/server'), stdio: 'inherit' });
    if (b.status !== 0) throw new Error('building the server failed');
  }
  console.log(`api: GET /api/bucket/item, ${PROJECTS} projects, ${CONNECTIONS} connections, ${DURATION}s per measurement`);
  const hello = await startProcess([join(here, 'hello.mjs')], {}, /listening (http:\/\/\S+)/);
  let base;
  try {
    await cannon(hello.url);
    base = await cannon(hello.url);
  } finally {
    await stop(hello);
  }
  const baseRps = base.requests.average;
  console.log(`  baseline  fastify hello-world  ${baseRps.toFixed(0)} req/s  p99 ${base.latency.p99} ms`);

  const results = [];
  const db = await pgDatabase();
  if (db) {
    try {
      const r = await measureServer('postgres', { DATABASE_URL: db.url });
      results.push({ label: 'postgres', r });
    } finally {
      await db.drop();
    }
  } else {
    console.log('  postgres  SKIPPED: PostgreSQL is unreachable at ' + PG_URL);
  }
  const e = await measureServer('embedded', {});
  results.push({ label: 'embedded', r: e });

  let ok = true;
  for (const { label, r } of results) {
    const ratio = r.requests.average / baseRps;
    const line = `  ${label.padEnd(9)} portal bucket list    ${r.requests.average.toFixed(0)} req/s  p99 ${r.latency.p99} ms  ratio ${ratio.toFixed(2)}x`;
    if (label === 'postgres') {
      const pass = ratio >= TARGET_RATIO && r.latency.p99 <= TARGET_P99_MS;
      ok &&= pass;
      console.log(`${line}  (target ≥ ${TARGET_RATIO}x, p99 ≤ ${TARGET_P99_MS} ms: ${pass ? 'met' : 'NOT MET'})`);
    } else {
      console.log(line);
    }
  }
  return {
    ok,
    results: results.map(({ label, r }) => ({ label, rps: r.requests.average, p99: r.latency.p99, ratio: r.requests.average / baseRps })),
    baseline: { rps: baseRps, p99: base.latency.p99 },
  };
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
