#!/usr/bin/env node
// Where the portal's time goes under the benchmark's load: the server under `node --cpu-prof` on PostgreSQL and on its
// embedded database, the project list at 32 connections for PROFILE_SECONDS (6), then the functions with the most
// self time (a share of all samples of the HTTP thread; the embedded database's own thread is not in it).
// The .cpuprofile files stay in PROFILE_DIR (a temporary directory) for a flame graph (Chrome DevTools, speedscope).
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cannon, loadLine, pgDatabase, seed, startServer, stop } from './lib.mjs';

const SECONDS = Number(process.env.PROFILE_SECONDS ?? 6);
const TOP = 25;

/** Self time per function (name, file:line), as a share of the profile's samples. */
function summarise(profile) {
  const self = new Map();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const counts = new Map();
  for (const s of profile.samples) counts.set(s, (counts.get(s) ?? 0) + 1);
  let total = 0;
  for (const [id, n] of counts) {
    const f = byId.get(id).callFrame;
    const where = f.url ? `${f.url.replace(/^.*\/(node_modules\/)?/, '')}:${f.lineNumber + 1}` : '';
    const key = `${f.functionName || '(anonymous)'} ${where}`.trim();
    self.set(key, (self.get(key) ?? 0) + n);
    total += n;
  }
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP)
    .map(([k, n]) => `  ${((100 * n) / total).toFixed(1).padStart(5)} %  ${k}`);
}

async function profileOne(label, env) {
  const dir = process.env.PROFILE_DIR ?? (await mkdtemp(join(tmpdir(), 'portal-prof-')));
  const data = await mkdtemp(join(tmpdir(), 'portal-bench-'));
  const server = await startServer({ DATA_DIR: data, ...env }, [
    '--cpu-prof',
    '--cpu-prof-dir',
    dir,
    '--cpu-prof-name',
    `${label}.cpuprofile`,
  ]);
  try {
    const target = await seed(server.url);
    const r = await cannon(`${server.url}${target.path}`, target.headers, SECONDS);
    console.log(`${label}: ${r.requests.average.toFixed(0)} req/s, p99 ${r.p99.toFixed(1)} ms under the profiler, ${loadLine()}`);
  } finally {
    await stop(server);
    await rm(data, { recursive: true, force: true });
  }
  const file = (await readdir(dir)).find((f) => f.startsWith(label));
  console.log(summarise(JSON.parse(await readFile(join(dir, file), 'utf8'))).join('\n'));
  console.log(`  (profile: ${join(dir, file)})`);
}

const db = await pgDatabase();
try {
  if (db) await profileOne('postgres', { DATABASE_URL: db.url });
  await profileOne('embedded', {});
} finally {
  await db?.drop();
}
