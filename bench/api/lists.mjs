#!/usr/bin/env node
// Lists at scale: a client with 10,000 projects, a project with 10,000 uploads (one file each) and 10,000 requests, on
// PostgreSQL; pages of 50 (the first, and one from the middle reached by its cursor) at 32 connections. Prints p99
// per list and the server's resident memory before and after the load (target: p99 ≤ 30 ms, memory flat).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { json, loadLine, measure, pgDatabase, rssMb, signUp, startServer, stop } from './run.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, '..', '..', 'packages/server/package.json'));
const pg = require('pg');
const ROWS = 10_000;
const PAGE = 50;
const TARGET_P99 = 30;
// Memory may move by what one page and V8's own heap growth take; a list held whole would move it by far more.
const TARGET_RSS_GROWTH_MB = 50;

/** The rows, written straight into the database (the API would take minutes to make 30,000 of them). */
async function seed(url, client) {
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
    await db.query('analyze');
    return bucket;
  } finally {
    await db.end();
  }
}

export async function runLists() {
  const db = await pgDatabase();
  if (!db) {
    console.log('  lists     SKIPPED: PostgreSQL is unreachable');
    return false;
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'portal-bench-'));
  let server;
  try {
    server = await startServer({ DATABASE_URL: db.url, DATA_DIR: dataDir });
    const { token, client } = await signUp(server.url);
    const bucket = await seed(db.url, client);
    const headers = { authorization: `Bearer ${token}` };
    const lists = [
      ['projects', `/api/bucket/item?active=1&client=${client}`, (b) => b.bucket],
      ['uploads', `/api/rend/item?active=1&bucket=${bucket}`, (b) => b.rend],
      ['requests', `/api/run/item?active=1&bucket=${bucket}`, (b) => b.run],
    ];
    // The cursor of the middle of each list, walked to page by page as a client would.
    const targets = [];
    for (const [label, path, rows] of lists) {
      let cursor = null;
      for (let i = 0; i < ROWS / PAGE / 2; i++) {
        const page = rows(await json(`${server.url}${path}&limit=${PAGE}${cursor ? `&cursor=${cursor}` : ''}`, { headers }));
        if (page.list.length !== PAGE) throw new Error(`${label}: a page of ${page.list.length} rows`);
        cursor = page.next;
      }
      targets.push([`${label}, first page of ${PAGE}`, `${path}&limit=${PAGE}`]);
      targets.push([`${label}, page ${ROWS / PAGE / 2 + 1} of ${ROWS / PAGE}`, `${path}&limit=${PAGE}&cursor=${cursor}`]);
    }
    console.log(`lists: ${ROWS} projects, ${ROWS} uploads and ${ROWS} requests on PostgreSQL, pages of ${PAGE}, 32 connections`);
    // Memory is read once every list has been served under load (V8's heap has grown to its working size), then
    // again after the measured runs: a server holding more per request, or a whole list, keeps growing.
    for (const [label, path] of targets) await measure(label, `${server.url}${path}`, headers);
    const before = rssMb(server.child.pid);
    console.log(`  ${loadLine()}`);
    let ok = true;
    for (const [label, path] of targets) {
      const r = await measure(label, `${server.url}${path}`, headers);
      const pass = r.p99 <= TARGET_P99;
      ok &&= pass;
      console.log(
        `  ${label.padEnd(38)} ${r.rps.toFixed(0).padStart(6)} req/s  p99 ${String(r.p99).padStart(4)} ms  (p99 ≤ ${TARGET_P99} ms: ${pass ? 'met' : 'NOT MET'})`,
      );
    }
    const after = rssMb(server.child.pid);
    console.log(`  ${loadLine()}`);
    const flat = after - before <= TARGET_RSS_GROWTH_MB;
    ok &&= flat;
    console.log(
      `  server memory (RSS) after a first round ${before.toFixed(0)} MB, after the measured round ${after.toFixed(0)} MB (growth ≤ ${TARGET_RSS_GROWTH_MB} MB: ${flat ? 'met' : 'NOT MET'})`,
    );
    return ok;
  } finally {
    if (server) await stop(server);
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
