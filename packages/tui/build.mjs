// Bundles `portal` with esbuild: dist/portal.js (the CLI) plus chunks loaded on demand (Ink and React for the UI).
import { build } from 'esbuild';
import { readFileSync, rmSync, mkdirSync, writeFileSync, chmodSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const here = dirname(fileURLToPath(import.meta.url));
const pkg = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));
const dist = join(here, 'dist');
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

// Ink imports react-devtools-core only when DEV is set; an empty module keeps it out of the bundle.
const stub = join(dist, '.devtools-stub.mjs');
writeFileSync(stub, 'export default undefined;\n');

// ofetch's Node build wraps the global fetch with node-fetch-native, a polyfill that Node 20 never uses but that every
// command would evaluate (about 15 ms); its standard build calls the same global fetch. That build also reads
// `globalThis.Headers` when it loads, and on Node that getter loads undici (about 20 ms), although the program's
// calls go over node:http with their own Headers (core's plainHttp). Its default instance gets a Headers that
// reaches the global one only when used.
const ofetchDir = dirname(createRequire(join(here, '../core/package.json')).resolve('ofetch/package.json'));
const EAGER_HEADERS = 'const Headers = _globalThis.Headers;';
const ofetchStandard = {
  name: 'ofetch-standard',
  setup(b) {
    b.onResolve({ filter: /^ofetch$/ }, () => ({ path: join(ofetchDir, 'dist/index.mjs'), namespace: 'ofetch-standard' }));
    b.onLoad({ filter: /.*/, namespace: 'ofetch-standard' }, ({ path }) => {
      const source = readFileSync(path, 'utf8');
      if (!source.includes(EAGER_HEADERS)) throw new Error(`ofetch changed: ${path} no longer has "${EAGER_HEADERS}"; review build.mjs`);
      const lazy = 'const Headers = class { constructor(init) { return new _globalThis.Headers(init); } };';
      return { contents: source.replace(EAGER_HEADERS, lazy), resolveDir: dirname(path), loader: 'js' };
    });
  },
};

// commander loads node:child_process (with dgram and the socket list) when it loads, for executable subcommands, which
// `portal` has none of: every command paid for it (a few ms of start-up). It now loads on a spawn, if one ever happens.
const EAGER_CHILD_PROCESS = "const childProcess = require('node:child_process');";
const commanderLazySpawn = {
  name: 'commander-lazy-spawn',
  setup(b) {
    b.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, ({ path }) => {
      const source = readFileSync(path, 'utf8');
      if (!source.includes(EAGER_CHILD_PROCESS))
        throw new Error(`commander changed: ${path} no longer has "${EAGER_CHILD_PROCESS}"; review build.mjs`);
      const lazy = "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };";
      return { contents: source.replace(EAGER_CHILD_PROCESS, lazy), loader: 'js' };
    });
  },
};

await build({
  absWorkingDir: here,
  entryPoints: { portal: 'src/main.ts' },
  outdir: dist,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  legalComments: 'none',
  chunkNames: 'chunks/[name]-[hash]',
  entryNames: '[name]',
  outExtension: { '.js': '.js' },
  alias: { 'react-devtools-core': stub },
  plugins: [ofetchStandard, commanderLazySpawn],
  define: { __PORTAL_VERSION__: JSON.stringify(pkg.version), 'process.env.NODE_ENV': '"production"' },
  // Some of Ink's dependencies call require() for Node built-ins; ESM bundles need one defined.
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __portalRequire } from 'node:module';\nconst require = __portalRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
rmSync(stub);
chmodSync(join(dist, 'portal.js'), 0o755);
