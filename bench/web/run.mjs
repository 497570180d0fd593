#!/usr/bin/env node
// Web bench: gzip size of the JavaScript `/` loads before the login form is interactive, against a bare
// React + react-router + MUI page (AppBar, Drawer, Table, TextField, Button, Snackbar) built with Vite in the
// same run (target <= 1.1x), and the time from navigation to the login form being interactive in Chromium.
import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const webDir = join(root, 'packages', 'web');
const work = join(webDir, '.tmp', 'bench');
const TARGET = 1.1;
const RUNS = 7;

const fromWeb = createRequire(join(webDir, 'package.json'));
const fromTests = createRequire(join(root, 'tests', 'package.json'));
const { build } = await import(fromWeb.resolve('vite'));
const react = (await import(fromWeb.resolve('@vitejs/plugin-react'))).default;
const { chromium } = fromTests('@playwright/test');

rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });

// The baseline lives under packages/web so it resolves the same react, react-router and MUI.
const baseDir = join(work, 'baseline');
mkdirSync(baseDir, { recursive: true });
writeFileSync(
  join(baseDir, 'index.html'),
  '<!doctype html><html lang="en"><head><meta charset="UTF-8"><title>Baseline</title></head><body><div id="root"></div><script type="module" src="./main.tsx"></script></body></html>',
);
writeFileSync(
  join(baseDir, 'main.tsx'),
  `
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { AppBar, Button, Drawer, Snackbar, Table, TableBody, TableCell, TableHead, TableRow, TextField, Toolbar, Typography } from '@mui/material';
function Page() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <AppBar position="static"><Toolbar><Typography>Baseline</Typography></Toolbar></AppBar>
      <Drawer variant="permanent"><div>Menu</div></Drawer>
      <TextField label="Email" name="email" />
      <Button onClick={() => setOpen(true)}>Go</Button>
      <Table><TableHead><TableRow><TableCell>A</TableCell></TableRow></TableHead><TableBody><TableRow><TableCell>1</TableCell></TableRow></TableBody></Table>
      <Snackbar open={open} message="Hello" />
    </>
  );
}
createRoot(document.getElementById('root')!).render(<BrowserRouter><Routes><Route path="*" element={<Page />} /></Routes></BrowserRouter>);
`,
);

async function viteBuild(rootDir, outDir) {
  await build({
    root: rootDir,
    configFile: false,
    logLevel: 'error',
    plugins: [react()],
    build: { outDir, emptyOutDir: true, manifest: 'manifest.json', chunkSizeWarningLimit: 5000 },
  });
  return outDir;
}

/** Files `/` loads before anything runs: the entry chunk and its static imports (what index.html preloads). */
function initialJs(outDir) {
  const manifest = JSON.parse(readFileSync(join(outDir, 'manifest.json'), 'utf8'));
  const entry = Object.values(manifest).find((m) => m.isEntry);
  const seen = new Set();
  const walk = (m) => {
    if (!m || seen.has(m.file)) return;
    seen.add(m.file);
    for (const i of m.imports ?? []) walk(manifest[i]);
  };
  walk(entry);
  return [...seen].filter((f) => f.endsWith('.js'));
}

const gz = (outDir, files) => files.reduce((sum, f) => sum + gzipSync(readFileSync(join(outDir, f)), { level: 9 }).length, 0);

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json' };
function serve(dir) {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    let file = join(dir, path);
    if (!file.startsWith(dir) || !existsSync(file) || path.endsWith('/')) file = join(dir, 'index.html');
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Median time from navigation start to an email input that React has attached (its props key is set). */
async function timeToInteractive(browser, url) {
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(
      () => {
        const input = document.querySelector('input[name="email"]');
        return !!input && Object.keys(input).some((k) => k.startsWith('__reactProps'));
      },
      null,
      { polling: 'raf', timeout: 30_000 },
    );
    times.push(await page.evaluate(() => performance.now()));
    await context.close();
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const portalOut = await viteBuild(webDir, join(work, 'portal-dist'));
const baseOut = await viteBuild(baseDir, join(work, 'baseline-dist'));
const portalFiles = initialJs(portalOut);
const baseFiles = initialJs(baseOut);
const portalBytes = gz(portalOut, portalFiles);
const baseBytes = gz(baseOut, baseFiles);
const ratio = portalBytes / baseBytes;

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const portalServer = await serve(portalOut);
const baseServer = await serve(baseOut);
let portalMs;
let baseMs;
try {
  portalMs = await timeToInteractive(browser, `http://127.0.0.1:${portalServer.address().port}/`);
  baseMs = await timeToInteractive(browser, `http://127.0.0.1:${baseServer.address().port}/`);
} finally {
  await browser.close();
  portalServer.close();
  baseServer.close();
}

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(
  `JavaScript before / is interactive (gzip): portal ${kb(portalBytes)} in ${portalFiles.length} file(s); bare React + router + MUI page ${kb(baseBytes)}`,
);
console.log(`ratio ${ratio.toFixed(3)}x (target <= ${TARGET}x)`);
console.log(
  `navigation to interactive login form (median of ${RUNS}, Chromium, local server): portal ${portalMs.toFixed(0)} ms; bare page ${baseMs.toFixed(0)} ms`,
);
rmSync(work, { recursive: true, force: true });
process.exit(ratio <= TARGET ? 0 : 1);
