#!/usr/bin/env node
// API benchmark: GET /api/bucket/item with 100 projects and 32 connections. The portal on PostgreSQL and on its
// embedded database, against floors on the same PostgreSQL database: a hand-written Fastify + pg server doing the
// same work in three statements and in one (floor.mjs), and a bare Fastify hello-world as a second reference. Every
// server runs in its own process, all at once, measured in turn for BENCH_ROUNDS rounds (5) of BENCH_DURATION
// seconds (4); prints medians, product/floor ratios and p99.
// BENCH_LISTS=1 adds the lists at scale: 10,000 projects, uploads and requests, pages of 50 (lists.mjs).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import {
  here,
  root,
  serverMain,
  DURATION,
  ROUNDS,
  CONNECTIONS,
  PROJECTS,
  PG_URL,
  TARGET,
  startProcess,
  stop,
  rssMb,
  measure,
  json,
  seed,
  startServer,
  pgDatabase,
  loadLine,
  productHeaders,
  sameHeaders,
} from './lib.mjs';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const line = (label, r, extra = '') =>
  console.log(`  ${label.padEnd(38)} ${r.rps.toFixed(0).padStart(6)} req/s  p99 ${r.p99.toFixed(1).padStart(5)} ms${extra}`);
const verdict = (pass) => (pass ? 'met' : 'NOT MET');

/**
 * Every server runs at once, each in its own process, and is measured in turn, round after round; a figure is the
 * median of its rounds and a ratio the median of the ratios within each round. On a machine shared with other work
 * the load moves from second to second: servers measured minutes apart would be compared under different loads.
 */
async function rounds(servers) {
  const seen = new Map(servers.map((s) => [s.label, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const s of servers) seen.get(s.label).push(await measure(s.label, s.url, s.headers ?? {}));
    console.log(`  round ${r + 1} of ${ROUNDS} done, ${loadLine()}`);
  }
  return seen;
}

const summary = (list) => ({ rps: median(list.map((m) => m.rps)), p99: median(list.map((m) => m.p99)) });
const ratioOf = (a, b) => median(a.map((m, i) => m.rps / b[i].rps));

export async function run() {
  if (!existsSync(serverMain)) {
    const b = spawnSync(process.execPath, ['build.mjs'], { cwd: join(root, 'packages/server'), stdio: 'inherit' });
    if (b.status !== 0) throw new Error('building the server failed');
  }
  console.log(
    `api: GET /api/bucket/item, ${PROJECTS} projects, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION}s per server (medians)`,
  );
  const db = await pgDatabase();
  if (!db) throw new Error('PostgreSQL is unreachable at ' + PG_URL + ': the floors and the portal on PostgreSQL need it');
  const started = [];
  const dirs = [];
  const dataDir = async () => {
    const d = await mkdtemp(join(tmpdir(), 'portal-bench-'));
    dirs.push(d);
    return d;
  };
  try {
    const env = { DATABASE_URL: db.url, JWT_SECRET: randomBytes(32).toString('hex') };
    const start = async (p) => (started.push(await p), started.at(-1));
    const hello = await start(startProcess([join(here, 'hello.mjs')], {}, /listening (http:\/\/\S+)/));
    const onPg = await start(startServer({ ...env, DATA_DIR: await dataDir() }));
    const embedded = await start(startServer({ DATA_DIR: await dataDir() }));
    const target = await seed(onPg.url);
    const embeddedTarget = await seed(embedded.url);
    const servers = [
      { label: 'hello', url: hello.url },
      { label: 'portal-pg', url: `${onPg.url}${target.path}`, headers: target.headers },
      { label: 'portal-embedded', url: `${embedded.url}${embeddedTarget.path}`, headers: embeddedTarget.headers },
    ];
    const FLOOR_HEADERS = JSON.stringify(await productHeaders(`${onPg.url}${target.path}`, target.headers));
    for (const mode of ['three', 'one']) {
      const floor = await start(
        startProcess([join(here, 'floor.mjs')], { ...env, FLOOR_MODE: mode, FLOOR_HEADERS }, /listening (http:\/\/\S+)/),
      );
      // The floor must answer exactly the portal's JSON and headers, or it would be a floor of other work.
      const body = await json(`${floor.url}${target.path}`, { headers: target.headers });
      if (JSON.stringify(body) !== JSON.stringify(target.body))
        throw new Error(`the ${mode}-statement floor answers other JSON than the portal`);
      await sameHeaders(`the ${mode}-statement floor`, `${onPg.url}${target.path}`, `${floor.url}${target.path}`, target.headers);
      servers.push({ label: `floor-${mode}`, url: `${floor.url}${target.path}`, headers: target.headers });
    }
    const rss = () =>
      `portal RSS: on PostgreSQL ${rssMb(onPg.child.pid).toFixed(0)} MB, embedded ${rssMb(embedded.child.pid).toFixed(0)} MB`;
    console.log(`  before the rounds: ${rss()}, ${loadLine()}`);
    const m = await rounds(servers);
    console.log(`  after the rounds: ${rss()}`);
    const [helloR, pgR, embR, threeR, oneR] = ['hello', 'portal-pg', 'portal-embedded', 'floor-three', 'floor-one'].map((l) => m.get(l));
    line('reference: fastify hello-world', summary(helloR));
    line('floor: fastify + pg, 3 statements', summary(threeR));
    line('floor: fastify + pg, 1 statement', summary(oneR));
    const pg = summary(pgR);
    const ratio = ratioOf(pgR, oneR);
    const p99Ratio = pg.p99 / summary(oneR).p99;
    const pgPass = ratio >= TARGET.postgresRatio && p99Ratio <= TARGET.postgresP99Ratio;
    line(
      'portal on PostgreSQL',
      pg,
      `  ${ratioOf(pgR, threeR).toFixed(2)}x 3-statement floor, ${ratio.toFixed(2)}x 1-statement floor, p99 ${p99Ratio.toFixed(2)}x the floor's (target ≥ ${TARGET.postgresRatio}x, p99 ≤ ${TARGET.postgresP99Ratio}x: ${verdict(pgPass)})`,
    );
    const e = summary(embR);
    const ePass = e.rps >= TARGET.embeddedRps;
    line(
      'portal on its embedded database',
      e,
      `  ${ratioOf(embR, oneR).toFixed(2)}x 1-statement floor (target ≥ ${TARGET.embeddedRps} req/s: ${verdict(ePass)})`,
    );
    const out = { ok: pgPass && ePass, postgres: pg, embedded: e, floorOne: summary(oneR), floorThree: summary(threeR) };
    if (process.env.BENCH_LISTS === '1') {
      for (const p of started.splice(0)) await stop(p);
      const { runLists } = await import('./lists.mjs');
      out.ok = (await runLists()) && out.ok;
    }
    return out;
  } finally {
    for (const p of started) await stop(p);
    await db.drop();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  }
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
