#!/usr/bin/env node
// Runs every benchmark (bench/<name>/run.mjs) in turn; each prints ratios against a baseline measured in the same run.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const names = readdirSync(here, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(here, d.name, 'run.mjs')))
  .map((d) => d.name)
  .filter((n) => only.length === 0 || only.includes(n))
  .sort();

const failed = [];
for (const name of names) {
  console.log(`\n=== bench/${name} ===`);
  const r = spawnSync(process.execPath, [join(here, name, 'run.mjs')], { stdio: 'inherit', cwd: join(here, '..') });
  if (r.status !== 0) failed.push(name);
}
console.log(failed.length ? `\nBenchmarks below target: ${failed.join(', ')}` : `\nAll ${names.length} benchmarks met their targets.`);
process.exit(failed.length ? 1 : 0);
