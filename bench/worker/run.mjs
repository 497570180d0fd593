#!/usr/bin/env node
// Benchmark of the worker's processing: analysis of a 10 MB JSON upload (time and peak memory growth, against
// JSON.parse of the same file as the baseline) and a fit of 5,000 × 3 rows, each measured in a fresh process; the
// same fit reporting its progress events to its parent over IPC as a job's process does (within 1.1× of the fit
// without events, measured in the same run);
// then the built server under attack: with three hostile uploads (the repository's hostile corpus) in flight,
// another client's 50-row JSON reaches Ready within 1.5× its time on the same server idle, the server's process
// tree grows by at most 200 MB, and each hostile file settles within 30 s.
import { fork, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const MB = 1024 * 1024;
const TARGET = {
  analysisMs: 500,
  analysisGrowthMb: 100,
  fitMs: 2000,
  eventsRatio: 1.1,
  readyRatio: 1.5,
  treeGrowthMb: 200,
  hostileSettleS: 30,
};
const root = join(here, '..', '..');
const hostileBundle = join(here, '.tmp', 'hostile.mjs');
const bundle = join(here, '.tmp', 'processing.mjs');
const LIMITS = { rows: 1_000_000, inputColumns: 500, maxParameters: 1_000_000_000 };

function peakMb() {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) / 1024 : process.resourceUsage().maxRSS / 1024;
}
const rssMb = () => process.memoryUsage().rss / MB;

// Child mode: one measurement in a clean process, reported as JSON on stdout.
if (process.argv[2] === '--child') {
  const [, , , mode, path] = process.argv;
  const mod = await import(pathToFileURL(bundle).href);
  const before = rssMb();
  const t0 = performance.now();
  let detail;
  if (mode === 'analyze') detail = await mod.analyzeFile(path, 'data.json', LIMITS);
  else if (mode === 'parse') detail = { rows: JSON.parse(readFileSync(path, 'utf8')).length };
  else {
    // 'fit-events': progress reported to the parent over IPC, as thread.ts does in a job's process.
    let events = 0;
    const report =
      mode === 'fit-events'
        ? (event) => {
            events++;
            process.send({ event });
          }
        : undefined;
    const fit = await mod.fitModel(
      path,
      { explainability: false, input_column_size: 3, output_column_size: 5, task_target_size: 1, task: 'regression' },
      { seed: 1, report },
    );
    detail = mode === 'fit-events' ? { summary: fit.summary, events } : fit.summary;
  }
  const ms = performance.now() - t0;
  const out = { ms, growthMb: peakMb() - before, detail };
  if (process.send) process.send({ done: out }, () => process.exit(0));
  else {
    process.stdout.write(JSON.stringify(out));
    process.exit(0);
  }
}

async function buildBundle() {
  const { build } = await import('esbuild');
  mkdirSync(dirname(bundle), { recursive: true });
  await build({
    entryPoints: [join(here, '../../packages/server/src/processing/index.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: bundle,
    logLevel: 'error',
  });
  await build({
    entryPoints: [join(root, 'packages/server/test/hostile.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: hostileBundle,
    logLevel: 'error',
  });
}

// ---- the built server under attack ----

/** Resident memory (MB) of a process and all its descendants, from /proc. */
function treeRssMb(pid) {
  const parent = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      /* the process ended while we looked */
    }
  }
  const tree = new Set([pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [p, pp] of parent)
      if (!tree.has(p) && tree.has(pp)) {
        tree.add(p);
        grew = true;
      }
  }
  let kb = 0;
  for (const p of tree) {
    try {
      kb += Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      /* ended */
    }
  }
  return kb / 1024;
}

function startServer(dataDir) {
  const child = spawn(process.execPath, [join(root, 'packages/server/dist/main.js')], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', AUTH_RATE_LIMIT: '10000' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d) => {
      out += d.toString();
      const m = /Portal running at (http:\/\/\S+)/.exec(out);
      if (m) resolve({ child, url: m[1] });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited (${code}):\n${out}`)));
  });
}

async function api(base, method, path, token, body) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function client(base, label) {
  const n = `${label}${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`.slice(0, 30);
  const s = await api(base, 'POST', '/api/user/signup', null, {
    email: `${n}@example.com`,
    username: n,
    password: 'Bench-pass1!',
    name: `Company ${n}`,
  });
  const bucket = (await api(base, 'PUT', '/api/bucket/item', s.token, { client: s.login.client.list[0].stamp, name: label })).bucket.stamp;
  return { token: s.token, bucket };
}

/** Registers, sends and finishes one file as a new upload; returns its stamp. */
async function send(base, c, name, bytes) {
  const rend = (await api(base, 'PUT', '/api/rend/item', c.token, { bucket: c.bucket, name })).rend.stamp;
  const checksum = createHash('sha256').update(bytes).digest('hex');
  const reg = await api(base, 'PUT', '/api/upload/item', c.token, { rend, name, file: { name, size: bytes.length, checksum } });
  const put = await fetch(reg.upload.url, { method: 'PUT', body: new Uint8Array(bytes) });
  if (!put.ok) throw new Error(`PUT ${name}: ${put.status}`);
  await api(base, 'POST', '/api/upload/finish', c.token, { upload: reg.upload.stamp });
  await api(base, 'POST', '/api/rend/finish', c.token, { rend });
  return rend;
}

/** Waits until the upload is Ready or Failed; its flight and error. */
async function settle(base, c, rend, timeoutMs = 120_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const r = (await api(base, 'GET', `/api/rend/item?bucket=${c.bucket}`, c.token)).rend.list.find((x) => x.stamp === rend);
    if (r && (r.flight === 'Ready' || r.flight === 'Failed')) return { flight: r.flight, error: r.upload.list[0]?.error ?? '' };
    if (Date.now() > end) throw new Error(`upload ${rend} did not settle`);
    await new Promise((res) => setTimeout(res, 20));
  }
}

/** Waits until the attacker has sent this many uploads in all (each finished, so its analysis is queued or done). */
async function waitQueued(base, c, count) {
  for (;;) {
    const list = (await api(base, 'GET', `/api/rend/item?bucket=${c.bucket}`, c.token)).rend.list;
    if (list.filter((r) => r.upload.list[0] && r.upload.list[0].state !== 'Pending').length >= count) return;
    await new Promise((res) => setTimeout(res, 20));
  }
}

const smallJson = () => Buffer.from(JSON.stringify(Array.from({ length: 50 }, (_, i) => [i % 7, (i * 3) % 11, (i * 5) % 13, i])));

/** Milliseconds from the first request to Ready for a 50-row JSON upload. */
async function timeSmall(base, c) {
  const t0 = performance.now();
  const r = await settle(base, c, await send(base, c, 'small.json', smallJson()));
  if (r.flight !== 'Ready') throw new Error(`the small upload failed: ${r.error}`);
  return performance.now() - t0;
}

async function underAttack() {
  const { hostileCorpus } = await import(pathToFileURL(hostileBundle).href);
  const hostile = hostileCorpus().filter((h) => ['repeated.npz', 'bomb.pt', 'aliased.pkl'].includes(h.fileName));
  if (hostile.length !== 3) throw new Error('the hostile corpus lacks the three files this benchmark sends');
  const build = spawnSync(process.execPath, [join(root, 'packages/server/build.mjs')], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`server build failed: ${build.stderr}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-worker-server-'));
  const server = await startServer(dataDir);
  try {
    const base = server.url;
    const attacker = await client(base, 'attacker');
    const bystander = await client(base, 'bystander');
    await timeSmall(base, bystander); // warm-up: first connections, first job process
    const idle = median(await seq(3, () => timeSmall(base, bystander)));
    const baseline = treeRssMb(server.child.pid);

    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, treeRssMb(server.child.pid));
    }, 50);
    const loaded = [];
    const settles = [];
    try {
      for (let round = 0; round < 3; round++) {
        // Each hostile file is timed from its first request to its settled state, watched while the bystander uploads.
        const watched = Promise.all(
          hostile.map(async (h) => {
            const t0 = performance.now();
            const r = await settle(base, attacker, await send(base, attacker, h.fileName, h.bytes));
            return { name: h.fileName, s: (performance.now() - t0) / 1000, ...r };
          }),
        );
        // The bystander starts once all three are in flight (sent and queued).
        await waitQueued(base, attacker, hostile.length * (round + 1));
        loaded.push(await timeSmall(base, bystander));
        settles.push(...(await watched));
      }
    } finally {
      clearInterval(sampler);
    }
    const loadedMs = median(loaded);
    const ratio = loadedMs / idle;
    const growth = peak - baseline;
    const worst = Math.max(...settles.map((x) => x.s));
    console.log(
      `another client's 50-row JSON to Ready: idle ${idle.toFixed(0)} ms, with three hostile uploads in flight ${loadedMs.toFixed(0)} ms, ratio ${ratio.toFixed(2)}× (target ≤ ${TARGET.readyRatio}×)`,
    );
    console.log(
      `  server process tree: ${baseline.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB, growth ${growth.toFixed(0)} MB (target ≤ ${TARGET.treeGrowthMb})`,
    );
    for (const h of hostile) {
      const mine = settles.filter((x) => x.name === h.fileName);
      console.log(
        `  ${h.fileName} (${h.name}): settled in ${mine.map((x) => x.s.toFixed(1)).join(', ')} s (target ≤ ${TARGET.hostileSettleS}); ${mine[0].flight}: ${mine[0].error}`,
      );
    }
    return (
      ratio <= TARGET.readyRatio &&
      growth <= TARGET.treeGrowthMb &&
      worst <= TARGET.hostileSettleS &&
      settles.every((x) => x.flight === 'Failed')
    );
  } finally {
    await new Promise((res) => {
      server.child.once('exit', res);
      server.child.kill('SIGTERM');
    });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function seq(n, fn) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await fn());
  return out;
}

/** A fit in a forked process (an IPC channel, as a job's process has); resolves with its timing and the events it sent. */
function forkedFit(mode, path) {
  return new Promise((resolve, reject) => {
    const c = fork(fileURLToPath(import.meta.url), ['--child', mode, path], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let err = '';
    let received = 0;
    c.stderr.on('data', (d) => (err += d));
    c.on('message', (m) => {
      if (m.event) received++;
      else if (m.done) resolve({ ...m.done, received });
    });
    c.on('exit', (code) => code !== 0 && reject(new Error(`${mode} failed: ${err}`)));
  });
}

function child(mode, path) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', mode, path], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${mode} failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** A seeded numeric table written as JSON, just under `bytes` long. */
function writeTable(path, bytes, cols) {
  let s = 12345;
  const rand = () => {
    s = (s * 16807) % 2147483647;
    return s / 2147483647;
  };
  const rows = [];
  let size = 2;
  for (;;) {
    const row = `[${Array.from({ length: cols }, () => (rand() * 2000 - 1000).toFixed(6)).join(',')}]`;
    if (size + row.length + 1 > bytes) break;
    rows.push(row);
    size += row.length + 1;
  }
  writeFileSync(path, `[${rows.join(',')}]`);
  return rows.length;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

await buildBundle();
const dir = mkdtempSync(join(tmpdir(), 'bench-worker-'));
let ok = true;
try {
  const json = join(dir, 'data.json');
  const rows = writeTable(json, 10 * MB, 8);
  const runs = 3;
  const ours = Array.from({ length: runs }, () => child('analyze', json));
  const base = Array.from({ length: runs }, () => child('parse', json));
  if (ours[0].detail.proc !== 1 || ours[0].detail.rows !== rows) throw new Error(`analysis gave ${JSON.stringify(ours[0].detail)}`);
  const ms = median(ours.map((r) => r.ms)),
    baseMs = median(base.map((r) => r.ms));
  const growth = Math.max(...ours.map((r) => r.growthMb)),
    baseGrowth = Math.max(...base.map((r) => r.growthMb));
  console.log(
    `analysis of a ${(10).toFixed(0)} MB JSON (${rows.toLocaleString('en-US')} rows × 8): ${ms.toFixed(0)} ms (target ≤ ${TARGET.analysisMs}), JSON.parse ${baseMs.toFixed(0)} ms, ratio ${(baseMs / ms).toFixed(1)}× faster`,
  );
  console.log(
    `  peak memory growth: ${growth.toFixed(0)} MB (target ≤ ${TARGET.analysisGrowthMb}), JSON.parse ${baseGrowth.toFixed(0)} MB, ratio ${(baseGrowth / Math.max(1, growth)).toFixed(1)}× less`,
  );
  ok &&= ms <= TARGET.analysisMs && growth <= TARGET.analysisGrowthMb;

  const fitPath = join(dir, 'fit.json');
  let s = 99;
  const rand = () => {
    s = (s * 16807) % 2147483647;
    return s / 2147483647;
  };
  const fitRows = Array.from({ length: 5_000 }, () => {
    const x = [rand() * 10, rand() * 4 - 2, rand()];
    return [...x, 2 * x[0] - 3 * x[1] + 0.5 * x[2] + (rand() - 0.5) * 0.1];
  });
  writeFileSync(fitPath, JSON.stringify(fitRows));
  const fits = Array.from({ length: runs }, () => child('fit', fitPath));
  const parseSmall = median(Array.from({ length: runs }, () => child('parse', fitPath).ms));
  const fitMs = median(fits.map((r) => r.ms));
  console.log(
    `fit of 5,000 × 3 rows: ${fitMs.toFixed(0)} ms (target ≤ ${TARGET.fitMs}), "${fits[0].detail}", JSON.parse of the same file ${parseSmall.toFixed(1)} ms`,
  );
  ok &&= fitMs <= TARGET.fitMs;

  // With and without progress events, alternated so both see the same machine load.
  const plain = [],
    withEvents = [];
  for (let i = 0; i < 5; i++) {
    plain.push(await forkedFit('fit', fitPath));
    withEvents.push(await forkedFit('fit-events', fitPath));
  }
  const plainMs = median(plain.map((r) => r.ms)),
    eventsMs = median(withEvents.map((r) => r.ms));
  const eventsRatio = eventsMs / plainMs;
  console.log(
    `fit of 5,000 × 3 rows with progress events: ${eventsMs.toFixed(0)} ms, without ${plainMs.toFixed(0)} ms, ratio ${eventsRatio.toFixed(3)}× (target ≤ ${TARGET.eventsRatio}×); ${withEvents[0].received} events sent over IPC (progress at most once a second, and the fit's sentences)`,
  );
  ok &&= eventsRatio <= TARGET.eventsRatio;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
ok = (await underAttack()) && ok;
console.log(ok ? 'worker: all targets met' : 'worker: BELOW TARGET');
process.exit(ok ? 0 : 1);
