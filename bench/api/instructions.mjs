#!/usr/bin/env node
// The lists' work per request counted, not timed: the portal on PostgreSQL and its floor (floor-lists.mjs), each in
// its own process under valgrind's callgrind, serve the same pages of the same 10,000-row lists (lists.mjs); after a
// warm-up long enough for V8 to have optimised what it will, the instructions each process executes over INSTR_N
// requests (1,000) are counted and divided. Unlike req/s, CPU time or a p99 on a shared 2-core machine, the count
// repeats within 1-2 % from run to run, whatever else the machine is doing: it says how much more work the portal
// does for a page than the hand-written floor, not how fast a given machine runs it (cache misses, other threads and
// the machine's load are outside it; the README's "Eighth session" says what that leaves out).
//
// Both processes run with --single-threaded (V8 compiles and collects on the main thread, so when it does so is
// decided by the work, not by timing) and --no-memory-reducer (a collection V8 starts when allocation is slow for a
// while, which valgrind's 30-50x slowdown would trigger all the time); both count every thread.
//
//   node bench/api/instructions.mjs                 # the first page of each list
//   INSTR_PAGES=all node bench/api/instructions.mjs # and the page in each list's middle
//   INSTR_PAGES=projects node bench/api/instructions.mjs  # only the pages whose label holds a word (comma-separated)
// INSTR_WARM (12,000) requests of warm-up per page, then three counts of INSTR_N (1,000), the median kept. About 25
// minutes for the three first pages on a 2-core machine (the portal and the floor run side by side, each at valgrind's
// 30-50x slowdown). Needs valgrind (Debian's package).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { SERVER_ENV, here, pgDatabase, productHeaders, serverMain, signUp, startServer, stop } from './lib.mjs';
import { listPages, seed } from './lists.mjs';
import { SERVER_NODE_FLAGS } from '../../packages/server/node-flags.mjs';

const WARM = Number(process.env.INSTR_WARM ?? 12_000);
const N = Number(process.env.INSTR_N ?? 1_000);
const WINDOWS = 3;
const CONCURRENCY = 4;
/** The servers' address: valgrind also names its control pipes after HOST, so callgrind_control is given the same. */
const HOST = '127.0.0.1';

/** `n` GETs of `url`, CONCURRENCY at a time over kept-alive connections; any answer but 200 stops the count. */
async function load(agent, url, headers, n) {
  let left = n;
  const one = () =>
    new Promise((resolve, reject) => {
      http
        .get(url, { agent, headers }, (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${url}: ${res.statusCode}`))));
        })
        .on('error', reject);
    });
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (left-- > 0) await one();
    }),
  );
}

/** A server under callgrind, counting from the start; resolves once it prints its URL. */
function underCallgrind(dir, nodeArgs, script, env) {
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      `--callgrind-out-file=${join(dir, 'callgrind.%p')}`,
      `--vgdb-prefix=${join(dir, 'vgdb')}`,
      process.execPath,
      '--single-threaded',
      '--no-memory-reducer',
      ...nodeArgs,
      script,
    ],
    { env: { ...process.env, ...env, HOST, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d) => {
      out += d;
      const m = /(?:Portal running at|listening) (http:\/\/\S+?)\/?(?:\s|$)/.exec(out);
      if (m) resolve({ child, url: m[1] });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`exited (${code}) before it served:\n${out.slice(-2000)}`)));
  });
}

const control = (dir, pid, ...args) =>
  execFileSync('callgrind_control', [`--vgdb-prefix=${join(dir, 'vgdb')}`, ...args, String(pid)], {
    env: { ...process.env, HOST },
    stdio: 'ignore',
  });

/**
 * Instructions per request of each page, in page order: the warm-up, then WINDOWS counts of N requests (counters
 * zeroed, the requests, a dump read back) of which the median is kept, so that a window holding one of V8's rare
 * full collections (one in tens of thousands of requests at full speed) does not stand for the page.
 */
async function count(dir, nodeArgs, script, env, pages, headers) {
  const { child, url } = await underCallgrind(dir, nodeArgs, script, env);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const perPage = [];
  try {
    for (const [, path] of pages) {
      await load(agent, `${url}${path}`, headers, WARM);
      const windows = [];
      for (let w = 0; w < WINDOWS; w++) {
        control(dir, child.pid, '--zero');
        await load(agent, `${url}${path}`, headers, N);
        const before = new Set(await readdir(dir));
        control(dir, child.pid, '--dump');
        const dump = (await readdir(dir)).find((f) => !before.has(f) && f.startsWith('callgrind.'));
        const total = /^(?:summary|totals): (\d+)/m.exec(await readFile(join(dir, dump), 'utf8'));
        if (!total) throw new Error(`no total in ${dump}`);
        windows.push(Number(total[1]) / N);
      }
      perPage.push(windows);
    }
  } finally {
    agent.destroy();
    child.kill('SIGTERM');
  }
  return perPage;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const k = (x) => (x / 1000).toFixed(0);

async function main() {
  if (spawnSync('valgrind', ['--version']).status !== 0) {
    console.log('instructions: SKIPPED: valgrind is not installed (apt-get install valgrind)');
    return true;
  }
  const db = await pgDatabase();
  if (!db) {
    console.log('instructions: SKIPPED: PostgreSQL is unreachable');
    return true;
  }
  const work = await mkdtemp(join(tmpdir(), 'portal-instructions-'));
  try {
    const env = { DATABASE_URL: db.url, JWT_SECRET: randomBytes(32).toString('hex'), DATA_DIR: join(work, 'data') };
    await mkdir(env.DATA_DIR);
    // Signed up, seeded and walked (for the middle pages' cursors) on the portal at full speed, then stopped.
    const server = await startServer(env);
    let pages;
    let headers;
    try {
      const { token, client } = await signUp(server.url);
      headers = { authorization: `Bearer ${token}` };
      const bucket = await seed(db.url, client);
      pages = await listPages(server.url, headers, client, bucket);
      // The floor sends the portal's own headers too (lists.mjs checks that it answers as the portal does).
      env.FLOOR_HEADERS = JSON.stringify(await productHeaders(`${server.url}${pages[0][1]}`, headers));
    } finally {
      await stop(server);
    }
    const only = process.env.INSTR_PAGES ?? 'first page';
    if (only !== 'all') pages = pages.filter(([label]) => only.split(',').some((word) => label.includes(word.trim())));
    console.log(
      `instructions a request (callgrind, every thread): per page ${WARM} requests of warm-up, then the median of ${WINDOWS} counts of ${N}, ${CONCURRENCY} at a time`,
    );
    const [mine, floor] = await Promise.all([
      mkdtemp(join(work, 'portal-')).then((dir) => count(dir, SERVER_NODE_FLAGS, serverMain, { ...SERVER_ENV, ...env }, pages, headers)),
      mkdtemp(join(work, 'floor-')).then((dir) => count(dir, [], join(here, 'floor-lists.mjs'), env, pages, headers)),
    ]);
    pages.forEach(([label], i) => {
      const [m, f] = [median(mine[i]), median(floor[i])];
      console.log(
        `  ${label.padEnd(30)} portal ${k(m).padStart(6)} k  floor ${k(f).padStart(6)} k  ${(m / f).toFixed(3)}x` +
          `  (windows: portal ${mine[i].map(k).join(', ')}; floor ${floor[i].map(k).join(', ')})`,
      );
    });
    return true;
  } finally {
    await db.drop();
    await rm(work, { recursive: true, force: true });
  }
}

main().then(
  (ok) => process.exit(ok ? 0 : 1),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
