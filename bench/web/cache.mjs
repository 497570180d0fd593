#!/usr/bin/env node
// Web bench of the shared data cache: this build of the web portal against the build of the commit before the cache
// came (the parent of the commit that added packages/core/src/query.ts), both built in this run, each served by this
// tree's server on the same seeded data, loaded in turn in Chromium. Targets (issue 40): a page load asks no call
// twice; Back to a list shows its names within 150 ms; a rename shows everywhere without a reload and the old name is
// never drawn after it; the project page's cold load makes no more calls than the build before.
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS } from '../../tests/chromium.mjs';
import { signUp, startPortal } from './serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const arg = (name, fallback) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback);
const RUNS = Number(arg('--runs', 3));
const BACK_MS = 150;
const PROJECTS = 30;
const work = join(tmpdir(), `portal-bench-cache-${process.pid}`);
const pnpm = join(root, '.tools', 'node_modules', 'pnpm', 'bin', 'pnpm.cjs');
const { chromium } = createRequire(join(root, 'tests', 'package.json'))('@playwright/test');

const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
const run = (cwd, ...args) => execFileSync(process.execPath, [pnpm, ...args], { cwd, stdio: ['ignore', 'ignore', 'inherit'] });

/** The commit before the shared cache: the parent of the one that added core's query.ts (or --baseline). */
function baselineCommit() {
  const given = arg('--baseline');
  if (given) return git('rev-parse', given);
  const added = git('log', '--diff-filter=A', '--format=%H', '--', 'packages/core/src/query.ts').split('\n').at(-1);
  return git('rev-parse', `${added}^`);
}

/** packages/web of `tree` built with that tree's own Vite config and sources, into `out`. */
function buildWeb(tree, out) {
  run(tree, '--filter', '@portal/web', 'exec', 'vite', 'build', '--logLevel', 'error', '--outDir', out, '--emptyOutDir');
  return out;
}

/** A user with PROJECTS projects, made through the API; answers the token, the client and the projects' stamps. */
async function seed(url, tag) {
  const { token, client } = await signUp(url, tag);
  const projects = [];
  for (let i = 0; i < PROJECTS; i++) {
    const made = await fetch(`${url}/api/bucket/item`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ client, name: `Project ${String(i).padStart(2, '0')}` }),
    });
    projects.push((await made.json()).bucket.stamp);
  }
  return { url, token, client, projects };
}

/** A signed-in browser context on `site` whose API calls (method, path and query) are recorded in order. */
async function signedIn(browser, site) {
  const context = await browser.newContext({ baseURL: site.url });
  await context.addInitScript((t) => localStorage.setItem('portal.token', t), site.token);
  const page = await context.newPage();
  const calls = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/api/')) calls.push(`${r.method()} ${u.pathname}${u.search}`);
  });
  return { context, page, calls };
}

const twice = (calls) => calls.filter((c, i) => calls.indexOf(c) !== i);
const cell = (page, name) => page.getByRole('cell', { name, exact: true });

/** A cold load of `path`: the API calls made until the page has settled, and those asked more than once. */
async function coldLoad(browser, site, path, shown) {
  const { context, page, calls } = await signedIn(browser, site);
  await page.goto(path);
  await shown(page).first().waitFor({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  await context.close();
  return { calls: calls.length, twice: twice(calls) };
}

/** The list, a project opened from it, then Back: ms from Back until the list's names are drawn, and whether a loading state was drawn on the way. */
async function back(browser, site) {
  const { context, page } = await signedIn(browser, site);
  await page.goto(`/client/${site.client}/projects`);
  await cell(page, 'Project 29').waitFor({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  await page.getByRole('button', { name: 'Open Project 29' }).first().click();
  await page.getByRole('navigation', { name: 'Breadcrumbs' }).getByText('Project 29', { exact: true }).waitFor({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  // Back as the browser's button does it, timed in the page from the moment it is asked for.
  await page.evaluate(() => {
    window.loadingDrawn = false;
    new MutationObserver(() => {
      if (document.querySelector('[role="progressbar"], [role="status"][aria-label^="Loading"]')) window.loadingDrawn = true;
    }).observe(document.body, { childList: true, subtree: true });
    window.backAt = performance.now();
    history.back();
  });
  const drawn = await page.waitForFunction(
    () => [...document.querySelectorAll('td, th')].some((c) => c.textContent === 'Project 29') && performance.now() - window.backAt,
    undefined,
    { polling: 'raf', timeout: 30_000 },
  );
  const ms = await drawn.jsonValue();
  const loading = await page.evaluate(() => window.loadingDrawn);
  await context.close();
  return { ms, loading };
}

/**
 * Opens a project, goes to the list, renames the project there, then Back to its page: ms from the click until the
 * new name is drawn, whether any screen drew the old name after the new one (the list, then the project page's
 * breadcrumb and title), and the calls Back made.
 */
async function rename(browser, site, stamp, from, to) {
  const { context, page, calls } = await signedIn(browser, site);
  // The project's page first, so its name is held for the breadcrumb; then the list through the sidebar.
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumbs' });
  await page.goto(`/client/${site.client}/project/${stamp}/runs`);
  await crumbs.getByText(from, { exact: true }).waitFor({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }).click();
  await cell(page, from).waitFor({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  await page
    .getByRole('button', { name: `More actions for ${from}` })
    .first()
    .click();
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill(to);
  await page.evaluate(
    ([oldName, newName]) => {
      const w = window;
      w.renamed = { at: 0, newAt: 0, oldAfter: false };
      // The text drawn outside the rename dialog (its title and field still hold the old name while it is open).
      const drawn = () => {
        const out = [];
        const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let n = walk.nextNode(); n; n = walk.nextNode()) if (!n.parentElement?.closest('[role="dialog"]')) out.push(n.textContent);
        return out;
      };
      const check = () => {
        const texts = drawn();
        if (!w.renamed.newAt && texts.some((t) => t.includes(newName))) w.renamed.newAt = performance.now();
        if (w.renamed.newAt && texts.some((t) => t.trim() === oldName)) w.renamed.oldAfter = true;
      };
      new MutationObserver(check).observe(document.body, { childList: true, subtree: true, characterData: true });
      w.renamed.at = performance.now();
    },
    [from, to],
  );
  await page.getByRole('dialog').getByRole('button', { name: 'Rename' }).click();
  await cell(page, to).waitFor({ timeout: 30_000 });
  const shownMs = await page.evaluate(() => window.renamed.newAt - window.renamed.at);
  await page.waitForLoadState('networkidle');
  const before = calls.length;
  // Back to the project's page seen before the rename.
  await page.evaluate(() => history.back());
  await crumbs.getByText(to, { exact: true }).waitFor({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  const oldAfter = await page.evaluate(() => window.renamed.oldAfter);
  await context.close();
  return { shownMs, oldAfter, openCalls: calls.length - before, stamp };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const baseline = baselineCommit();
const tree = join(work, 'baseline-tree');
mkdirSync(work, { recursive: true });
console.log(`baseline: ${git('log', '-1', '--format=%h %s', baseline).slice(0, 110)}`);
git('worktree', 'add', '--detach', tree, baseline);
const servers = [];
let browser;
try {
  // The baseline's web with its own dependencies (pnpm's store already holds them).
  run(tree, 'install', '--frozen-lockfile', '--prefer-offline', '--filter', '@portal/web...');
  const builds = { now: buildWeb(root, join(work, 'now-dist')), before: buildWeb(tree, join(work, 'before-dist')) };
  const sites = {};
  for (const [name, dist] of Object.entries(builds)) {
    const server = await startPortal(dist, join(work, `data-${name}`));
    servers.push(server);
    sites[name] = await seed(server.url, name);
  }
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  const results = { now: { list: [], project: [], back: [], rename: [] }, before: { list: [], project: [], back: [], rename: [] } };
  // Interleaved, so a busy moment of the shared machine falls on both builds alike.
  for (let i = 0; i < RUNS; i++) {
    for (const name of ['before', 'now']) {
      const site = sites[name];
      const r = results[name];
      // Newest first: the last made is on the first page.
      r.list.push(await coldLoad(browser, site, `/client/${site.client}/projects`, (p) => cell(p, 'Project 29')));
      r.project.push(
        await coldLoad(browser, site, `/client/${site.client}/project/${site.projects[0]}/runs`, (p) =>
          p.getByRole('navigation', { name: 'Breadcrumbs' }).getByText('Project 00', { exact: true }),
        ),
      );
      r.back.push(await back(browser, site));
      const stamp = site.projects[28 - i];
      const from = `Project ${String(28 - i).padStart(2, '0')}`;
      r.rename.push(await rename(browser, site, stamp, from, `Renamed ${i}`));
    }
  }
  const summary = {};
  for (const [name, r] of Object.entries(results)) {
    summary[name] = {
      listCalls: median(r.list.map((x) => x.calls)),
      listTwice: Math.max(...r.list.map((x) => x.twice.length)),
      projectCalls: median(r.project.map((x) => x.calls)),
      projectTwice: Math.max(...r.project.map((x) => x.twice.length)),
      twiceExample: [...r.list, ...r.project].flatMap((x) => x.twice)[0],
      backMs: median(r.back.map((x) => x.ms)),
      backWorst: Math.max(...r.back.map((x) => x.ms)),
      backLoading: r.back.filter((x) => x.loading).length,
      renameMs: median(r.rename.map((x) => x.shownMs)),
      oldAfter: r.rename.filter((x) => x.oldAfter).length,
      openCalls: median(r.rename.map((x) => x.openCalls)),
    };
  }
  const { now, before } = summary;
  const ratio = (a, b) => (b ? `${(a / b).toFixed(2)}x` : '-');
  console.log(
    `median of ${RUNS}, local server, no throttling; "before" = ${baseline.slice(0, 7)}; load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores`,
  );
  const rows = [
    ['projects list, cold: API calls', now.listCalls, before.listCalls],
    ['projects list, cold: calls asked twice (worst run)', now.listTwice, before.listTwice],
    ['project page, cold: API calls', now.projectCalls, before.projectCalls],
    ['project page, cold: calls asked twice (worst run)', now.projectTwice, before.projectTwice],
    ['Back to the list: names drawn after (ms)', now.backMs.toFixed(0), before.backMs.toFixed(0)],
    ['Back to the list: slowest run (ms)', now.backWorst.toFixed(0), before.backWorst.toFixed(0)],
    [`Back to the list: runs that drew a loading state (of ${RUNS})`, now.backLoading, before.backLoading],
    ['rename: new name in the list after (ms)', now.renameMs.toFixed(0), before.renameMs.toFixed(0)],
    [`rename: runs where the old name was drawn after the new (of ${RUNS})`, now.oldAfter, before.oldAfter],
    ['Back to the renamed project: API calls', now.openCalls, before.openCalls],
  ];
  for (const [what, a, b] of rows)
    console.log(`${what.padEnd(66)} now ${String(a).padStart(6)}   before ${String(b).padStart(6)}   ${ratio(Number(a), Number(b))}`);
  if (now.twiceExample) console.log(`asked twice now: ${now.twiceExample}`);
  if (before.twiceExample) console.log(`asked twice before: ${before.twiceExample}`);
  const met = {
    'no call asked twice': now.listTwice === 0 && now.projectTwice === 0,
    [`Back within ${BACK_MS} ms`]: now.backWorst <= BACK_MS,
    'old name never drawn after the new': now.oldAfter === 0,
    'project page: no more calls than before': now.projectCalls <= before.projectCalls,
  };
  for (const [target, ok] of Object.entries(met)) console.log(`${ok ? 'met   ' : 'MISSED'} ${target}`);
  process.exitCode = Object.values(met).every(Boolean) ? 0 : 1;
} finally {
  await browser?.close();
  for (const s of servers) s.stop();
  git('worktree', 'remove', '--force', tree);
  rmSync(work, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
}
