#!/usr/bin/env node
// A soak of mixed writes on the embedded default: 16 connections create, rename and remove projects and register
// uploads for SOAK_MINUTES (30 by default), and the server's resident memory is printed at the start, the middle
// and the end, with the JavaScript heap and the memory outside it, so a growth can be told apart from a level.
// Not part of `npm run bench` (it is long): run `node bench/soak/soak.mjs` after a build.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { json, loadLine, rssMb, signUp, startServer, stop } from '../api/lib.mjs';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 30);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 16);
/** Samples printed: start, middle, end, and every tenth of the run in between. */
const SAMPLES = 10;

const dataDir = mkdtempSync(join(tmpdir(), 'portal-soak-'));
const metricsPort = await freePort();
const server = await startServer({ DATA_DIR: dataDir, PORTAL_WORKER: '0', METRICS_PORT: String(metricsPort) });
const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;

function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Heap and outside-heap memory from the server's own metrics (MB). */
async function heap() {
  if (!metricsUrl) return '';
  const text = await (await fetch(metricsUrl)).text();
  const read = (name) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN) / 1024 / 1024;
  return `heap used ${read('portal_nodejs_heap_size_used_bytes').toFixed(0)} MB, external ${read('portal_nodejs_external_memory_bytes').toFixed(0)} MB`;
}

const base = server.url;
const { token, client } = await signUp(base);
const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
const call = (method, path, body) => json(`${base}${path}`, { method, headers, body: JSON.stringify(body) });

let writes = 0;
let errors = 0;
let stopAt = 0;
/** One connection's loop: a project made, renamed, given an upload that is renamed, then removed. */
async function writer(w) {
  for (let i = 0; Date.now() < stopAt; i++) {
    try {
      const bucket = (await call('PUT', '/api/bucket/item', { client, name: `Soak ${w} ${i}` })).bucket.stamp;
      await call('POST', '/api/bucket/name', { bucket, name: `Soak ${w} ${i} renamed` });
      const rend = (await call('PUT', '/api/rend/item', { bucket, name: `data ${i}.json` })).rend.stamp;
      await call('POST', '/api/rend/name', { rend, name: `data ${i} renamed.json` });
      await call('POST', '/api/bucket/remove', { bucket, active: 0 });
      writes += 5;
    } catch (err) {
      errors++;
      if (errors <= 3) console.error(String(err).slice(0, 300));
    }
  }
}

// A warm-up of writes first: the figure at start is the server at work, not the peak of its start (migrations,
// the embedded database's first load), which the allocator gives back within a minute.
const WARMUP_S = Number(process.env.SOAK_WARMUP_S ?? 60);
stopAt = Date.now() + WARMUP_S * 1000 + MINUTES * 60_000;
const loops = Promise.all(Array.from({ length: CONNECTIONS }, (_, w) => writer(w)));
await new Promise((r) => setTimeout(r, WARMUP_S * 1000));
const started = Date.now();
const line = async (label) =>
  console.log(
    `${label.padEnd(8)} ${((Date.now() - started) / 60_000).toFixed(1).padStart(5)} min  RSS ${rssMb(server.child.pid).toFixed(0)} MB  ${await heap()}  writes ${writes}  errors ${errors}  (${loadLine()})`,
  );
console.log(
  `Soak: ${CONNECTIONS} connections of mixed writes for ${MINUTES} min after ${WARMUP_S} s of warm-up on the embedded default (SOAK_MINUTES, SOAK_WARMUP_S to change).`,
);
await line('start');
for (let k = 1; k <= SAMPLES; k++) {
  const at = started + (k * MINUTES * 60_000) / SAMPLES;
  while (Date.now() < at) await new Promise((r) => setTimeout(r, Math.min(1000, Math.max(0, at - Date.now()))));
  await line(k === SAMPLES / 2 ? 'middle' : k === SAMPLES ? 'end' : '');
}
await loops;
await stop(server);
rmSync(dataDir, { recursive: true, force: true });
