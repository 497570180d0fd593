#!/usr/bin/env node
// Lists at scale: a client with 10,000 projects, a project with 10,000 uploads (one file each) and 10,000 requests, on
// PostgreSQL; pages of 50 (the first, and one from the middle reached by its cursor) at 32 connections, each against
// its floor (the same page by hand, floor-lists.mjs) in alternating rounds. Prints req/s, p99 and the ratio to the
// floor per page, each server's CPU time per request, and the server's resident memory before and after the load
// (targets: TARGET in lib.mjs, memory flat).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import {
  CONNECTIONS,
  TARGET,
  json,
  loadLine,
  measure,
  pgDatabase,
  productHeaders,
  rssMb,
  sameHeaders,
  signUp,
  startProcess,
  startServer,
  stop,
} from './lib.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, '..', '..', 'packages/server/package.json'));
const pg = require('pg');
const ROWS = 10_000;
const PAGE = 50;
// Memory may move by what one page and V8's own heap growth take; a list held whole would move it by far more.
const TARGET_RSS_GROWTH_MB = 50;

/** The rows, written straight into the database (the API would take minutes to make 30,000 of them). */
export async function seed(url, client) {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const t = Math.floor(Date.now() / 1000) - ROWS;
    await db.query(
      `insert into buckets (stamp, client, name, active, created_at)
       select 'b_bench_' || i, $1, 'Project ' || i, 1, $2 + i from generate_series(1, $3) i`,
      [client, t, ROWS],
    );
    const bucket = 'b_bench_1';
    await db.query(
      `insert into rends (stamp, bucket, name, flight, active, created_at)
       select 'r_bench_' || i, $1, 'data ' || i || '.json', 'Ready', 1, $2 + i from generate_series(1, $3) i`,
      [bucket, t, ROWS],
    );
    await db.query(
      `insert into uploads (stamp, rend, name, state, checksum, file_name, size, proc, cols, rows, inputs, stored, created_at)
       select 'u_bench_' || i, 'r_bench_' || i, 'data ' || i || '.json', 'Finished', repeat('a', 64), 'data ' || i || '.json',
         2048, 1, 4, 100, 300, 1, $1 + i from generate_series(1, $2) i`,
      [t, ROWS],
    );
    await db.query(
      `insert into runs (stamp, bucket, rend, name, function, state, active, created_at)
       select 'run_bench_' || i, $1, 'r_bench_' || (1 + i % $3), 'Request ' || i, 'generate', 'Finished', 1, $2 + i
       from generate_series(1, $3) i`,
      [bucket, t, ROWS],
    );
    // As autovacuum would leave it after a bulk load: the count triggers left a dead version of the project's row
    // per upload and per request, which a server with autovacuum off would otherwise read on every page.
    await db.query('vacuum analyze');
    return bucket;
  } finally {
    await db.end();
  }
}

/**
 * The pages measured, as [label, path]: the first page of each list and the one in its middle, whose cursor is
 * walked to page by page as a client would (on `base`, a server already serving the seeded rows).
 */
export async function listPages(base, headers, client, bucket) {
  const lists = [
    ['projects', `/api/bucket/item?active=1&client=${client}`, (b) => b.bucket],
    ['uploads', `/api/rend/item?active=1&bucket=${bucket}`, (b) => b.rend],
    ['requests', `/api/run/item?active=1&bucket=${bucket}`, (b) => b.run],
  ];
  const targets = [];
  for (const [label, path, rows] of lists) {
    let cursor = null;
    for (let i = 0; i < ROWS / PAGE / 2; i++) {
      const page = rows(await json(`${base}${path}&limit=${PAGE}${cursor ? `&cursor=${cursor}` : ''}`, { headers }));
      if (page.list.length !== PAGE) throw new Error(`${label}: a page of ${page.list.length} rows`);
      cursor = page.next;
    }
    targets.push([`${label}, first page of ${PAGE}`, `${path}&limit=${PAGE}`]);
    targets.push([`${label}, page ${ROWS / PAGE / 2 + 1} of ${ROWS / PAGE}`, `${path}&limit=${PAGE}&cursor=${cursor}`]);
  }
  return targets;
}

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function runLists() {
  const db = await pgDatabase();
  if (!db) {
    console.log('  lists     SKIPPED: PostgreSQL is unreachable');
    return false;
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'portal-bench-'));
  const started = [];
  try {
    const env = { DATABASE_URL: db.url, JWT_SECRET: randomBytes(32).toString('hex') };
    const server = await startServer({ ...env, DATA_DIR: dataDir });
    started.push(server);
    const { token, client } = await signUp(server.url);
    const bucket = await seed(db.url, client);
    const headers = { authorization: `Bearer ${token}` };
    const targets = await listPages(server.url, headers, client, bucket);
    const FLOOR_HEADERS = JSON.stringify(await productHeaders(`${server.url}${targets[0][1]}`, headers));
    const floor = await startProcess([join(here, 'floor-lists.mjs')], { ...env, FLOOR_HEADERS }, /listening (http:\/\/\S+)/);
    started.push(floor);
    // The floor must answer exactly the portal's JSON and headers, or it would be a floor of other work.
    for (const [label, path] of targets) {
      const [mine, floors] = await Promise.all([server, floor].map((p) => json(`${p.url}${path}`, { headers })));
      if (JSON.stringify(mine) !== JSON.stringify(floors)) throw new Error(`${label}: the floor answers other JSON than the portal`);
      await sameHeaders(label, `${server.url}${path}`, `${floor.url}${path}`, headers);
    }
    console.log(
      `lists: ${ROWS} projects, ${ROWS} uploads and ${ROWS} requests on PostgreSQL, pages of ${PAGE}, ${CONNECTIONS} connections, ` +
        `${ROUNDS} rounds (medians), each page against its floor (Fastify + pg by hand, one statement, floor-lists.mjs)`,
    );
    // Memory is read once every list has been served under load (V8's heap has grown to its working size), then
    // again after the measured rounds: a server holding more per request, or a whole list, keeps growing.
    for (const [label, path] of targets) await measure(label, `${server.url}${path}`, headers);
    const before = rssMb(server.child.pid);
    console.log(`  ${loadLine()}`);
    const seen = new Map(targets.map(([label]) => [label, { mine: [], floor: [] }]));
    for (let r = 0; r < ROUNDS; r++) {
      for (const [label, path] of targets) {
        seen.get(label).mine.push(await measure(label, `${server.url}${path}`, headers, server.child.pid));
        seen.get(label).floor.push(await measure(label, `${floor.url}${path}`, headers, floor.child.pid));
      }
      console.log(`  round ${r + 1} of ${ROUNDS} done, ${loadLine()}`);
    }
    let ok = true;
    for (const [label, { mine, floor: floors }] of seen) {
      const p99 = median(mine.map((m) => m.p99));
      const p99Ratio = p99 / median(floors.map((m) => m.p99));
      const ratio = median(mine.map((m, i) => m.rps / floors[i].rps));
      const pass = ratio >= TARGET.postgresRatio && p99Ratio <= TARGET.postgresP99Ratio;
      ok &&= pass;
      console.log(
        `  ${label.padEnd(30)} ${median(mine.map((m) => m.rps))
          .toFixed(0)
          .padStart(6)} req/s  p99 ${p99.toFixed(1).padStart(5)} ms` +
          `  floor ${median(floors.map((m) => m.rps))
            .toFixed(0)
            .padStart(6)} req/s  p99 ${median(floors.map((m) => m.p99))
            .toFixed(1)
            .padStart(5)} ms` +
          `  ${ratio.toFixed(2)}x, p99 ${p99Ratio.toFixed(2)}x  (≥ ${TARGET.postgresRatio}x, p99 ≤ ${TARGET.postgresP99Ratio}x: ${pass ? 'met' : 'NOT MET'})` +
          `  CPU ${median(mine.map((m) => m.cpuUs)).toFixed(0)} against ${median(floors.map((m) => m.cpuUs)).toFixed(0)} µs a request`,
      );
    }
    const after = rssMb(server.child.pid);
    const flat = after - before <= TARGET_RSS_GROWTH_MB;
    ok &&= flat;
    console.log(
      `  server memory (RSS) after a first round ${before.toFixed(0)} MB, after the measured rounds ${after.toFixed(0)} MB (growth ≤ ${TARGET_RSS_GROWTH_MB} MB: ${flat ? 'met' : 'NOT MET'})`,
    );
    return ok;
  } finally {
    for (const p of started) await stop(p);
    await db.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  runLists().then(
    (ok) => process.exit(ok ? 0 : 1),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
