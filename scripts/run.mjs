#!/usr/bin/env node
// The README's commands: installs what is missing (pnpm pinned, dependencies), builds, then starts or tests.
import { spawnSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

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
  must(
    'npm',
    ['install', '--prefix', toolsDir, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', `pnpm@${PNPM_VERSION}`],
    'Installing pnpm',
  );
}

// A restart of an unchanged checkout skips install and build: each step keeps a fingerprint of its inputs (path,
// size and modification time of every file it reads) and runs again only when that changed or its outputs are gone.
const stampDir = join(root, 'node_modules', '.cache', 'portal-run');
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', 'test-results', 'playwright-report', '.portal-data', '.tmp', '.tools']);

/** Every file under `dir` (recursively) that a build could read, skipping outputs, caches and dependencies. */
function filesUnder(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP_DIRS.has(e.name)) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) filesUnder(p, out);
    else if (e.isFile()) out.push(p);
  }
  return out;
}

function fingerprint(paths) {
  const h = createHash('sha256');
  h.update(`${process.version}\n${PNPM_VERSION}\n`);
  for (const p of paths.sort()) {
    const st = statSync(p, { throwIfNoEntry: false });
    h.update(`${relative(root, p)}\0${st ? `${st.size}:${st.mtimeMs}` : '-'}\n`);
  }
  return h.digest('hex');
}

const stampFile = (step) => join(stampDir, `${step}.stamp`);
const unchanged = (step, print) => existsSync(stampFile(step)) && readFileSync(stampFile(step), 'utf8') === print;
function remember(step, print) {
  mkdirSync(stampDir, { recursive: true });
  writeFileSync(stampFile(step), print);
}

const workspaces = ['.', 'tests', 'bench', 'packages/server/test', ...readdirSync(join(root, 'packages')).map((d) => join('packages', d))];
const installInputs = () =>
  [
    ...workspaces.map((w) => join(root, w, 'package.json')),
    ...['pnpm-lock.yaml', 'pnpm-workspace.yaml', '.npmrc'].map((f) => join(root, f)),
  ].filter((p) => existsSync(p));

function install() {
  ensurePnpm();
  const print = fingerprint(installInputs());
  if (existsSync(join(root, 'node_modules', '.modules.yaml')) && unchanged('install', print)) {
    console.error('Dependencies unchanged: install skipped.');
    return;
  }
  const frozen = process.env.CI ? ['--frozen-lockfile'] : [];
  const code = pnpm(['install', '--prefer-offline', ...frozen]);
  if (code !== 0) {
    console.error('\nInstalling dependencies failed.');
    process.exit(code);
  }
  // pnpm may rewrite files it read (the lockfile): fingerprint them as they are now.
  remember('install', fingerprint(installInputs()));
}

// What `npm start` serves and the tests run: a build is complete only when all of these exist.
const BUILD_OUTPUTS = [
  'packages/server/dist/main.js',
  'packages/server/dist/processing-thread.js',
  'packages/tui/dist/portal.js',
  'packages/web/dist/index.html',
];
const buildInputs = () => [...filesUnder(join(root, 'packages')), ...installInputs()];

function build() {
  const print = fingerprint(buildInputs());
  if (BUILD_OUTPUTS.every((f) => existsSync(join(root, f))) && unchanged('build', print)) {
    console.error('Sources unchanged since the last build: build skipped.');
    return;
  }
  const code = pnpm(['-r', '--filter', './packages/*', 'run', 'build']);
  if (code !== 0) {
    console.error('\nBuild failed.');
    process.exit(code);
  }
  remember('build', print);
}

// Each test step writes a JSON report beside its normal output, so the run can close with one count of tests.
const reportDir = join(root, 'test-results', 'counts');
const vitestJson = (name) => ['--reporter=default', '--reporter=json', `--outputFile.json=${join(reportDir, `${name}.json`)}`];

// Steps of one group run at the same time (each its own process, its output printed whole when it ends); the groups
// run one after another. The checks read files only, so they share the machine's cores; the suites that boot servers
// run in their own groups, each spreading its files over the cores itself (vitest's and Playwright's workers).
const TEST_STEPS = [
  {
    name: 'typecheck',
    group: 'checks',
    args: ['-r', '--filter', './packages/*', '--filter', './tests', '--filter', './bench', 'run', 'typecheck'],
  },
  { name: 'lint', group: 'checks', args: ['exec', 'eslint', '--max-warnings=0', '.'] },
  { name: 'format', group: 'checks', args: ['exec', 'prettier', '--check', '--log-level=warn', '.'] },
  // Dead code: files, exports and dependencies nothing uses (knip.json names the entry points).
  { name: 'dead code', group: 'checks', args: ['exec', 'knip', '--no-progress'] },
  // The clients' unit tests share one process per worker (vitest's --no-isolate): each file loading React, Ink, MUI and
  // core again in a fresh process cost more than its tests. Such a file must leave no state behind that another reads.
  {
    name: 'unit tests (core, terminal UI, web)',
    args: ['exec', 'vitest', 'run', '--project', 'core', '--project', 'tui', '--project', 'web', '--no-isolate', ...vitestJson('clients')],
    report: 'clients.json',
    kind: 'vitest',
  },
  // The server's files keep a process each: they start servers, databases and workers of their own.
  {
    name: 'unit and integration tests (server, test kit)',
    // Three files at a time: a server file spends much of its time waiting on its servers, databases and workers, so
    // two left a fifth of the two cores idle.
    args: ['exec', 'vitest', 'run', '--project', 'server', '--project', 'testkit', '--maxWorkers=3', ...vitestJson('server')],
    report: 'server.json',
    kind: 'vitest',
  },
  // These two mostly wait on the servers, CLIs and nginx they start: side by side they share the two cores.
  {
    name: 'end-to-end tests (terminal)',
    group: 'processes',
    args: ['--filter', './tests', 'run', 'test:cli', ...vitestJson('cli')],
    report: 'cli.json',
    kind: 'vitest',
  },
  {
    name: 'end-to-end tests (cluster behind nginx)',
    group: 'processes',
    args: ['--filter', './tests', 'run', 'test:cluster', ...vitestJson('cluster')],
    report: 'cluster.json',
    kind: 'vitest',
  },
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

/** The first line of a failure's message, without colour codes, cut to one terminal line. */
const firstLine = (text) =>
  (
    stripVTControlCharacters(String(text ?? ''))
      .split('\n')
      .find((l) => l.trim()) ?? ''
  )
    .trim()
    .slice(0, 200);

/**
 * Each failed test of one step's JSON report as "file › name" and its message's first line, so the end of the run
 * (often all a CI log keeps) says which test failed and why.
 */
function failedTests(step) {
  const file = join(reportDir, step.report);
  if (!existsSync(file)) return [];
  try {
    const r = JSON.parse(readFileSync(file, 'utf8'));
    if (step.kind === 'vitest')
      return (r.testResults ?? []).flatMap((f) => {
        const where = relative(root, f.name ?? '');
        const tests = (f.assertionResults ?? []).filter((t) => t.status === 'failed');
        if (!tests.length && f.status === 'failed') return [`${where}: ${firstLine(f.message)}`];
        return tests.map((t) => `${where} › ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
      });
    const out = [];
    const walk = (suite) => {
      for (const spec of suite.specs ?? [])
        for (const t of spec.tests ?? [])
          if (t.status === 'unexpected') {
            const error = t.results?.at(-1)?.error?.message;
            out.push(`${spec.file}:${spec.line} › ${spec.title}${t.projectName ? ` [${t.projectName}]` : ''}: ${firstLine(error)}`);
          }
      for (const child of suite.suites ?? []) walk(child);
    };
    for (const suite of r.suites ?? []) walk(suite);
    return out;
  } catch {
    return [];
  }
}

// Chromium's headless shell, what Playwright itself runs headless: the browser suite took about a third less CPU
// with it than with the full browser, on a machine where that suite is bound by CPU.
const CHROMIUM = '/usr/bin/chromium-headless-shell';

/** The browser tests drive Debian's Chromium (Playwright cannot download its own here): installed when missing and we may. */
function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  if (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    console.log('Installing Chromium for the browser tests (apt-get) ...');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    if (run('apt-get', ['update', '-qq'], { env }) === 0)
      run('apt-get', ['install', '-y', '-qq', 'chromium-headless-shell'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  if (!existsSync(CHROMIUM))
    console.error(`The browser tests need Chromium at ${CHROMIUM}: install it with \`apt-get install -y chromium-headless-shell\`.`);
}

/** The cluster test runs Debian's nginx in front of the API processes: installed when missing and we may. */
function ensureNginx() {
  const present = () => ['/usr/sbin/nginx', '/usr/bin/nginx'].some((p) => existsSync(p));
  if (present()) return;
  if (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    console.log('Installing nginx for the cluster test (apt-get) ...');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    if (run('apt-get', ['update', '-qq'], { env }) === 0)
      run('apt-get', ['install', '-y', '-qq', 'nginx'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    // Only the binary is used (the test starts its own nginx): the packaged service need not run.
    run('service', ['nginx', 'stop'], { stdio: 'ignore' });
  }
  if (!present()) console.error('The cluster test needs nginx: install it with `apt-get install -y nginx`.');
}

// Every package was built just before the test steps: the end-to-end suites use what is there instead of building the
// CLI again (two suites side by side would each empty and refill packages/tui/dist under the other).
const BUILT = { PORTAL_TEST_BUILT: '1' };

/** One step with its output held back (stdout and stderr interleaved as written), for steps that run side by side. */
function runQuietly(step) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [pnpmBin, ...step.args], {
      cwd: root,
      env: { ...process.env, ...BUILT, ...step.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    const done = (ok) => resolve({ step, ok, s: (Date.now() - started) / 1000, output: Buffer.concat(chunks).toString() });
    child.on('error', (e) => {
      chunks.push(Buffer.from(`${e.message}\n`));
      done(false);
    });
    child.on('close', (code) => done(code === 0));
  });
}

async function test() {
  ensureChromium();
  ensureNginx();
  rmSync(reportDir, { recursive: true, force: true });
  mkdirSync(reportDir, { recursive: true });
  const failedSteps = [];
  let passed = 0;
  let failed = 0;
  const times = [];
  const tally = (step, ok) => {
    if (!ok) failedSteps.push(step.name);
    // Typecheck and lint count as one check each; a test step counts its tests, or one failure if it reported none.
    const counts = step.report ? countTests(step) : null;
    if (counts) {
      passed += counts.passed;
      failed += counts.failed;
      if (!ok && counts.failed === 0) failed += 1;
    } else if (ok) passed += 1;
    else failed += 1;
  };
  const groups = [];
  for (const step of TEST_STEPS) {
    const last = groups.at(-1);
    if (step.group && last?.[0].group === step.group) last.push(step);
    else groups.push([step]);
  }
  const runStart = Date.now();
  for (const group of groups) {
    if (group.length === 1) {
      const [step] = group;
      console.log(`\n=== ${step.name} ===`);
      const started = Date.now();
      const ok = run(process.execPath, [pnpmBin, ...step.args], { env: { ...process.env, ...BUILT, ...step.env } }) === 0;
      times.push({ name: step.name, s: (Date.now() - started) / 1000, ok });
      tally(step, ok);
      continue;
    }
    console.log(`\n=== ${group.map((s) => s.name).join(', ')} (at the same time) ===`);
    const results = await Promise.all(group.map((step) => runQuietly(step)));
    for (const r of results) {
      console.log(`\n=== ${r.step.name} ===`);
      process.stdout.write(r.output);
      times.push({ name: r.step.name, s: r.s, ok: r.ok });
      tally(r.step, r.ok);
    }
  }
  // Each step's time, so a suite that grows slow is seen in every run.
  console.log('\nTime per step:');
  for (const t of times) console.log(`  ${t.name.padEnd(42)} ${t.s.toFixed(0).padStart(5)} s${t.ok ? '' : '  (failed)'}`);
  console.log(`  ${'all steps (wall clock)'.padEnd(42)} ${((Date.now() - runStart) / 1000).toFixed(0).padStart(5)} s`);
  if (failedSteps.length) {
    console.error(`\nFailed: ${failedSteps.join(', ')}`);
    for (const step of TEST_STEPS.filter((s) => s.report && failedSteps.includes(s.name)))
      for (const line of failedTests(step).slice(0, 20)) console.error(`  ✗ ${line}`);
  } else console.log('\nAll test steps passed.');
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
    const { SERVER_NODE_FLAGS } = await import('../packages/server/node-flags.mjs');
    const main = join(root, 'packages/server/dist/main.js');
    const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, main, ...process.argv.slice(3)], {
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
    await test();
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
