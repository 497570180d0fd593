#!/usr/bin/env node
// The README's commands: installs what is missing (pnpm pinned, dependencies), builds, then starts or tests.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PNPM_VERSION = '10.34.8';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const toolsDir = join(root, '.tools');
const pnpmBin = join(toolsDir, 'node_modules', 'pnpm', 'bin', 'pnpm.cjs');

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
  if (r.error) throw r.error;
  return r.status ?? 1;
}

function must(cmd, args, what) {
  const code = run(cmd, args);
  if (code !== 0) {
    console.error(`\n${what} failed (exit ${code}).`);
    process.exit(code);
  }
}

function pnpm(args) {
  return run(process.execPath, [pnpmBin, ...args]);
}

function ensurePnpm() {
  if (existsSync(pnpmBin)) return;
  console.error(`Installing pnpm ${PNPM_VERSION} into .tools/ ...`);
  must('npm', ['install', '--prefix', toolsDir, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', `pnpm@${PNPM_VERSION}`], 'Installing pnpm');
}

function install() {
  ensurePnpm();
  const frozen = process.env.CI ? ['--frozen-lockfile'] : [];
  const code = pnpm(['install', '--prefer-offline', ...frozen]);
  if (code !== 0) {
    console.error('\nInstalling dependencies failed.');
    process.exit(code);
  }
}

function build() {
  const code = pnpm(['-r', '--filter', './packages/*', 'run', 'build']);
  if (code !== 0) {
    console.error('\nBuild failed.');
    process.exit(code);
  }
}

const TEST_STEPS = [
  ['typecheck', ['-r', '--filter', './packages/*', '--filter', './tests', '--filter', './bench', 'run', 'typecheck']],
  ['lint', ['exec', 'eslint', '--max-warnings=0', '.']],
  ['unit and integration tests', ['exec', 'vitest', 'run']],
  ['end-to-end tests (terminal)', ['--filter', './tests', 'run', 'test:cli']],
  ['end-to-end tests (browser)', ['--filter', './tests', 'run', 'test:web']],
];

const cmd = process.argv[2];
switch (cmd) {
  case 'build':
    install();
    build();
    break;
  case 'start': {
    install();
    build();
    const child = spawn(process.execPath, [join(root, 'packages/server/dist/main.js'), ...process.argv.slice(3)], {
      cwd: root,
      stdio: 'inherit',
    });
    for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
    child.on('exit', (code) => process.exit(code ?? 0));
    break;
  }
  case 'test': {
    install();
    build();
    const failed = [];
    for (const [name, args] of TEST_STEPS) {
      console.log(`\n=== ${name} ===`);
      if (pnpm(args) !== 0) failed.push(name);
    }
    if (failed.length) {
      console.error(`\nFailed: ${failed.join(', ')}`);
      process.exit(1);
    }
    console.log('\nAll test steps passed.');
    break;
  }
  case 'bench':
    install();
    build();
    process.exit(pnpm(['--filter', './bench', 'run', 'bench']));
    break;
  default:
    console.error('usage: node scripts/run.mjs start|test|build|bench');
    process.exit(2);
}
