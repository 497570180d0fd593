#!/usr/bin/env node
// Benchmark of the worker's processing: analysis of a 10 MB JSON upload (time and peak memory growth, against
// JSON.parse of the same file as the baseline) and a fit of 5,000 × 3 rows, each measured in a fresh process.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const MB = 1024 * 1024;
const TARGET = { analysisMs: 500, analysisGrowthMb: 100, fitMs: 2000 };
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
    const fit = await mod.fitModel(path, { explainability: false, input_column_size: 3, output_column_size: 5, task_target_size: 1, task: 'regression' }, { seed: 1 });
    detail = fit.summary;
  }
  const ms = performance.now() - t0;
  process.stdout.write(JSON.stringify({ ms, growthMb: peakMb() - before, detail }));
  process.exit(0);
}

async function buildBundle() {
  const { build } = await import('esbuild');
  mkdirSync(dirname(bundle), { recursive: true });
  await build({
    entryPoints: [join(here, '../../packages/server/src/processing/index.ts')],
    bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile: bundle, logLevel: 'error',
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
  const rand = () => { s = (s * 16807) % 2147483647; return s / 2147483647; };
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
  const ms = median(ours.map((r) => r.ms)), baseMs = median(base.map((r) => r.ms));
  const growth = Math.max(...ours.map((r) => r.growthMb)), baseGrowth = Math.max(...base.map((r) => r.growthMb));
  console.log(`analysis of a ${(10).toFixed(0)} MB JSON (${rows.toLocaleString('en-US')} rows × 8): ${ms.toFixed(0)} ms (target ≤ ${TARGET.analysisMs}), JSON.parse ${baseMs.toFixed(0)} ms, ratio ${(baseMs / ms).toFixed(1)}× faster`);
  console.log(`  peak memory growth: ${growth.toFixed(0)} MB (target ≤ ${TARGET.analysisGrowthMb}), JSON.parse ${baseGrowth.toFixed(0)} MB, ratio ${(baseGrowth / Math.max(1, growth)).toFixed(1)}× less`);
  ok &&= ms <= TARGET.analysisMs && growth <= TARGET.analysisGrowthMb;

  const fitPath = join(dir, 'fit.json');
  let s = 99;
  const rand = () => { s = (s * 16807) % 2147483647; return s / 2147483647; };
  const fitRows = Array.from({ length: 5_000 }, () => { const x = [rand() * 10, rand() * 4 - 2, rand()]; return [...x, 2 * x[0] - 3 * x[1] + 0.5 * x[2] + (rand() - 0.5) * 0.1]; });
  writeFileSync(fitPath, JSON.stringify(fitRows));
  const fits = Array.from({ length: runs }, () => child('fit', fitPath));
  const parseSmall = median(Array.from({ length: runs }, () => child('parse', fitPath).ms));
  const fitMs = median(fits.map((r) => r.ms));
  console.log(`fit of 5,000 × 3 rows: ${fitMs.toFixed(0)} ms (target ≤ ${TARGET.fitMs}), "${fits[0].detail}", JSON.parse of the same file ${parseSmall.toFixed(1)} ms`);
  ok &&= fitMs <= TARGET.fitMs;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(ok ? 'worker: all targets met' : 'worker: BELOW TARGET');
process.exit(ok ? 0 : 1);
