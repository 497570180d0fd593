// Browser end-to-end tests: Debian's Chromium against the real built server on a free port and a fresh DATA_DIR.
import { defineConfig } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS } from './chromium.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// Workers re-read this file: the port and data dir are chosen once and passed down through the environment.
if (!process.env.PORTAL_E2E_PORT) {
  process.env.PORTAL_E2E_PORT = execFileSync(process.execPath, [
    '-e',
    "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
  ]).toString();
}
// The stub of OpenAI's embeddings endpoint the text-embedding tests start (tests/web/texts.spec.ts) listens here.
if (!process.env.PORTAL_E2E_OPENAI_PORT) {
  process.env.PORTAL_E2E_OPENAI_PORT = execFileSync(process.execPath, [
    '-e',
    "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
  ]).toString();
}
if (!process.env.PORTAL_E2E_DATA_DIR) process.env.PORTAL_E2E_DATA_DIR = mkdtempSync(join(tmpdir(), 'portal-web-e2e-'));
// The operator CLI (plans, choices) cannot open the embedded database while the server holds it: with PostgreSQL
// at hand (as in CI) the run gets a fresh database of its own, which both share; without it the embedded one is used.
if (process.env.PORTAL_E2E_DATABASE_URL === undefined) {
  const name = `portal_web_e2e_${Date.now().toString(36)}`;
  const pg = process.env.PORTAL_E2E_PG ?? 'postgres://postgres@127.0.0.1:5432';
  const conn = ['-h', new URL(pg).hostname, '-p', new URL(pg).port || '5432', '-U', new URL(pg).username || 'postgres'];
  // Databases of earlier runs, dropped once no server holds them (a running one refuses, which is fine).
  try {
    const old = execFileSync(
      'psql',
      [...conn, '-d', 'postgres', '-Atc', "select datname from pg_database where datname like 'portal_web_e2e_%'"],
      { encoding: 'utf8', timeout: 10_000 },
    );
    for (const db of old.split('\n').filter(Boolean)) {
      try {
        execFileSync('dropdb', [...conn, db], { stdio: 'ignore', timeout: 10_000 });
      } catch {}
    }
  } catch {}
  try {
    execFileSync('createdb', [...conn, name], { stdio: 'ignore', timeout: 10_000 });
    process.env.PORTAL_E2E_DATABASE_URL = `${pg}/${name}`;
  } catch {
    process.env.PORTAL_E2E_DATABASE_URL = '';
  }
}

const port = process.env.PORTAL_E2E_PORT;
const baseURL = `http://localhost:${port}`;

export default defineConfig({
  testDir: 'web',
  testMatch: '**/*.spec.ts',
  outputDir: join(root, 'test-results', 'web'),
  // Two browsers at a time against the one server: every spec signs up its own users, so files do not meet.
  workers: 2,
  fullyParallel: false,
  timeout: 300_000,
  expect: { timeout: 15_000 },
  retries: 0,
  reporter: [['list'], ['html', { outputFolder: join(root, 'playwright-report'), open: 'never' }]],
  use: {
    baseURL,
    browserName: 'chromium',
    launchOptions: {
      // Chromium's headless shell (Debian's chromium-headless-shell), as Playwright runs headless by default; about a
      // third less CPU than the full browser. PORTAL_E2E_CHROMIUM picks another build (/usr/bin/chromium).
      executablePath: process.env.PORTAL_E2E_CHROMIUM ?? '/usr/bin/chromium-headless-shell',
      args: CHROMIUM_ARGS,
    },
    viewport: { width: 1280, height: 800 },
    acceptDownloads: true,
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
  webServer: {
    command: `node ${join(root, 'packages', 'server', 'dist', 'main.js')}`,
    url: `${baseURL}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: port,
      DATA_DIR: process.env.PORTAL_E2E_DATA_DIR,
      PUBLIC_URL: baseURL,
      // Every test signs its users up from this one address: the sign-up limit (20 a minute in production) would refuse them.
      AUTH_RATE_LIMIT: '1000',
      // Metrics on any free port (never a fixed one other servers on this machine may hold); no drain when stopped.
      METRICS_PORT: '0',
      PORTAL_DRAIN_S: '0',
      // An answer outside its call's contract is a 500, which the screen that asked for it shows and its test fails on.
      PORTAL_CHECK_ANSWERS: '1',
      WEB_DIST: join(root, 'packages', 'web', 'dist'),
      OPENAI_BASE_URL: `http://127.0.0.1:${process.env.PORTAL_E2E_OPENAI_PORT}/v1`,
      // The webhook tests' receivers listen on this machine (tests/web/webhooks.spec.ts).
      PORTAL_WEBHOOK_ALLOW_PRIVATE: '1',
      ...(process.env.PORTAL_E2E_DATABASE_URL ? { DATABASE_URL: process.env.PORTAL_E2E_DATABASE_URL } : {}),
    },
  },
});
