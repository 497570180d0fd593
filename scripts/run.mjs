#!/usr/bin/env node
// The README's commands: installs what is missing (pnpm pinned, dependencies), builds, then starts or tests.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// The pin lives once, in package.json's packageManager field.
const PNPM_VERSION = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager.replace(/^pnpm@/, '');
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

function installedPnpm() {
  try {
    return JSON.parse(readFileSync(join(toolsDir, 'node_modules', 'pnpm', 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}

function ensurePnpm() {
  // The pinned version, not merely some pnpm: a checkout that moved the pin gets the new one.
  if (existsSync(pnpmBin) && installedPnpm() === PNPM_VERSION) return;
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

// Each test step writes a JSON report beside its normal output, so the run can close with one count of tests.
const reportDir = join(root, 'test-results', 'counts');
const vitestJson = (name) => ['--reporter=default', '--reporter=json', `--outputFile.json=${join(reportDir, `${name}.json`)}`];

const TEST_STEPS = [
  { name: 'typecheck', args: ['-r', '--filter', './packages/*', '--filter', './tests', '--filter', './bench', 'run', 'typecheck'] },
  { name: 'lint', args: ['exec', 'eslint', '--max-warnings=0', '.'] },
  { name: 'unit and integration tests', args: ['exec', 'vitest', 'run', ...vitestJson('unit')], report: 'unit.json', kind: 'vitest' },
  { name: 'end-to-end tests (terminal)', args: ['--filter', './tests', 'run', 'test:cli', ...vitestJson('cli')], report: 'cli.json', kind: 'vitest' },
  {
    name: 'end-to-end tests (browser)',
    args: ['--filter', './tests', 'run', 'test:web', '--reporter=list,json'],
    env: { PLAYWRIGHT_JSON_OUTPUT_FILE: join(reportDir, 'web.json') },
    report: 'web.json',
    kind: 'playwright',
  },
];

/** Passed and failed tests of one step's JSON report; null when the step wrote none (it crashed before testing). */
function countTests(step) {
  const file = join(reportDir, step.report);
  if (!existsSync(file)) return null;
  try {
    const r = JSON.parse(readFileSync(file, 'utf8'));
    if (step.kind === 'vitest') return { passed: r.numPassedTests ?? 0, failed: r.numFailedTests ?? 0 };
    const s = r.stats ?? {};
    return { passed: (s.expected ?? 0) + (s.flaky ?? 0), failed: s.unexpected ?? 0 };
  } catch {
    return null;
  }
}

const CHROMIUM = '/usr/bin/chromium';

/** The browser tests drive Debian's Chromium (Playwright cannot download its own here): installed when missing and we may. */
function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  if (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    console.log('Installing Chromium for the browser tests (apt-get) ...');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    if (run('apt-get', ['update', '-qq'], { env }) === 0) run('apt-get', ['install', '-y', '-qq', 'chromium'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  if (!existsSync(CHROMIUM)) console.error(`The browser tests need Chromium at ${CHROMIUM}: install it with \`apt-get install -y chromium\`.`);
}

function test() {
  ensureChromium();
  rmSync(reportDir, { recursive: true, force: true });
  mkdirSync(reportDir, { recursive: true });
  const failedSteps = [];
  let passed = 0;
  let failed = 0;
  for (const step of TEST_STEPS) {
    console.log(`\n=== ${step.name} ===`);
    const ok = run(process.execPath, [pnpmBin, ...step.args], { env: { ...process.env, ...step.env } }) === 0;
    if (!ok) failedSteps.push(step.name);
    // Typecheck and lint count as one check each; a test step counts its tests, or one failure if it reported none.
    const counts = step.report ? countTests(step) : null;
    if (counts) {
      passed += counts.passed;
      failed += counts.failed;
      if (!ok && counts.failed === 0) failed += 1;
    } else if (ok) passed += 1;
    else failed += 1;
  }
  if (failedSteps.length) console.error(`\nFailed: ${failedSteps.join(', ')}`);
  else console.log('\nAll test steps passed.');
  console.log(`\n${passed} passed, ${failed} failed`);
  process.exit(failedSteps.length ? 1 : 0);
}

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
  case 'test':
    install();
    build();
    test();
    break;
  case 'bench':
    install();
    build();
    process.exit(pnpm(['--filter', './bench', 'run', 'bench', ...process.argv.slice(3)]));
    break;
  default:
    console.error('usage: node scripts/run.mjs start|test|build|bench');
    process.exit(2);
}
