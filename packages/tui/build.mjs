// Bundles `portal` with esbuild, in three parts:
// - dist/app/: the full build, every command and the terminal UI (Ink and React), split into chunks loaded on demand;
// - dist/cmd/<module>/portal.cjs: one build per module of the CLI (projects, uploads, ...), holding the program and
//   that module alone in one CommonJS file, with V8's code cache made for it (src/codeCache.ts). A command line that
//   names one module runs there: one file, read compiled, where the full build's shared chunks made it about thirty
//   files to parse (see bench/cli/README.md);
// - dist/portal.js: the launcher, which picks the build from the command line's words (src/cli/words.ts).
import { build } from 'esbuild';
import { execFile } from 'node:child_process';
import { readFileSync, rmSync, mkdirSync, mkdtempSync, writeFileSync, chmodSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';

const run = promisify(execFile);

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

const common = {
  absWorkingDir: here,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // PORTAL_NO_MINIFY=1 keeps names and lines readable, for a profile (`node --cpu-prof`) of a command.
  minify: !process.env.PORTAL_NO_MINIFY,
  legalComments: 'none',
  outExtension: { '.js': '.js' },
  define: { __PORTAL_VERSION__: JSON.stringify(pkg.version), 'process.env.NODE_ENV': '"production"' },
  // Some of Ink's dependencies call require() for Node built-ins; ESM bundles need one defined.
  banner: { js: "import { createRequire as __portalRequire } from 'node:module';\nconst require = __portalRequire(import.meta.url);" },
  logLevel: 'warning',
};

// The full build: everything, split into chunks loaded on demand.
const app = await build({
  ...common,
  entryPoints: { portal: 'src/main.ts' },
  outdir: join(dist, 'app'),
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  entryNames: '[name]',
  metafile: true,
  alias: { 'react-devtools-core': stub },
  plugins: [ofetchStandard, commanderLazySpawn],
});
rmSync(stub);

// The modules of the CLI that get a build of their own, read from the source (words.ts loads nothing).
const { OWN_BUILD, MODULE_WORDS, wordsOf } = await import(
  `data:text/javascript,${encodeURIComponent(
    (await build({ ...common, entryPoints: ['src/cli/words.ts'], write: false, minify: false, banner: {} })).outputFiles[0].text,
  )}`
);
const MODULE_FILES = new Map(MODULE_WORDS.map(([name]) => [name, name === 'completion' ? './completion' : `./${name}/index`]));

/**
 * The full build's chunk for a library that a module's build imports on demand (conf, jq-wasm): one copy of it on
 * disk, not one per module. Such a chunk must hold no code of the portal's own (a second copy of a module
 * would be a second instance of its state beside the module build's): the build fails if it does.
 */
function appChunkFor(absolute) {
  const entry = relative(here, absolute);
  const found = Object.entries(app.metafile.outputs).find(([, o]) => o.entryPoint === entry);
  if (!found) throw new Error(`the full build has no chunk for ${entry}`);
  const seen = new Set();
  const walk = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const out = app.metafile.outputs[file];
    const own = Object.keys(out.inputs).find((i) => !i.includes('node_modules') && !i.startsWith('<'));
    if (own) throw new Error(`${found[0]} (for ${entry}) holds the portal's own ${own}; import it statically instead`);
    for (const i of out.imports) if (i.kind === 'import-statement' && !i.external) walk(i.path);
  };
  walk(found[0]);
  return join(here, found[0]);
}

/** esbuild's own resolution of an import, from a plugin's onResolve (`marker` tells that plugin it is its own call). */
const resolveAgain = (b, args, marker) =>
  b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: marker });

/**
 * In a module's build: the other modules and the UI are left out; libraries it loads on demand (conf, jq-wasm) come
 * from the full build's chunks.
 */
const moduleOnly = (name) => ({
  name: 'module-only',
  setup(b) {
    const others = new Set([...MODULE_FILES].filter(([n]) => n !== name).map(([, file]) => file));
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      const leftOut =
        (args.importer.endsWith(join('src', 'cli', 'program.ts')) && others.has(args.path)) ||
        (args.importer.endsWith(join('src', 'cli', 'node.ts')) && args.path === '../ui/start');
      return leftOut ? { path: args.path, namespace: 'left-out' } : undefined;
    });
    // What every command of the module needs is evaluated with the program, not on demand: the module itself, and each
    // import marked `/* eager in module builds */` (the API client, the config folder). A library so marked (env-paths)
    // is then part of the build's file, not read from the full build's chunks.
    const own = `import('${MODULE_FILES.get(name)}')`;
    b.onLoad({ filter: /[\\/]src[\\/].*\.tsx?$/ }, ({ path }) => {
      const source = readFileSync(path, 'utf8');
      const eager = [];
      const contents = source.replace(/import\((?:\/\* eager in module builds \*\/ )?('[^']+')\)/g, (call, spec) => {
        if (!call.includes('eager in module builds') && !(call === own && path.endsWith(join('src', 'cli', 'program.ts')))) return call;
        eager.push(`import * as __eager${eager.length} from ${spec};`);
        return `Promise.resolve(__eager${eager.length - 1})`;
      });
      if (!eager.length) return undefined;
      return { contents: `${eager.join('\n')}\n${contents}`, loader: path.endsWith('x') ? 'tsx' : 'ts' };
    });
    // program.ts loads only the command line's module and the launcher sends only that module's command lines here.
    b.onLoad({ filter: /.*/, namespace: 'left-out' }, ({ path }) => ({
      contents: `throw new Error(${JSON.stringify(`${path} is not in the ${name} build: run the full build (dist/app/portal.js)`)});`,
      loader: 'js',
    }));
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.kind !== 'dynamic-import' || args.path.startsWith('node:') || args.pluginData === 'resolving') return undefined;
      const r = await resolveAgain(b, args, 'resolving');
      if (r.errors.length) return { errors: r.errors };
      // The portal's own packages (@portal/core) are part of the module's build like its other sources.
      if (!/[\\/]node_modules[\\/]/.test(r.path)) return r;
      const target = relative(join(dist, 'cmd', name), appChunkFor(r.path));
      return { path: target.startsWith('.') ? target : `./${target}`, external: true };
    });
  },
});

/**
 * A module's build is one file, where esbuild evaluates what is loaded on demand (the contract's groups, and all they
 * import) through lazy initialisers. It calls the initialiser of such a module from each module that imports it, but
 * with a package's `"sideEffects": false` (core's) it drops a module made only of re-exports (core's index) and with
 * it the calls it held: a value read through core's index was still undefined (ROLES, in the members build). A module
 * that re-exports is kept here; core's index reaches no group of calls (contract/table.ts is not in it), so keeping it
 * evaluates no group's schemas.
 */
const REEXPORTS = /(?:^|[;}\s])export\s*(?:\*(?:\s*as\s+[\w$]+)?|\{[^}]*\})\s*from\s*['"]/;
const reexports = new Map();
const keepReexports = {
  name: 'keep-reexports',
  setup(b) {
    b.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData || args.path.startsWith('node:')) return undefined;
      const r = await resolveAgain(b, args, 'keep-reexports');
      if (r.errors.length) return { errors: r.errors };
      if (r.external || r.namespace !== 'file') return r;
      if (!reexports.has(r.path)) reexports.set(r.path, REEXPORTS.test(readFileSync(r.path, 'utf8')));
      return reexports.get(r.path) ? { ...r, sideEffects: true } : r;
    });
  },
};

// Each module's build is one CommonJS file, with V8's code cache beside it (src/codeCache.ts).
const codeCache = join(dist, '.codeCache.mjs');
await build({ ...common, entryPoints: ['src/codeCache.ts'], outfile: codeCache, minify: false, banner: {} });
const { IMPORT, cacheFileOf } = await import(pathToFileURL(codeCache).href);
await Promise.all(
  OWN_BUILD.map(async (name) => {
    const outfile = join(dist, 'cmd', name, 'portal.cjs');
    const { metafile } = await build({
      ...common,
      format: 'cjs',
      banner: {},
      entryPoints: ['src/main.ts'],
      outfile,
      metafile: true,
      plugins: [ofetchStandard, commanderLazySpawn, moduleOnly(name), keepReexports],
    });
    // Its import() calls (Node's modules, libraries from the full build's chunks) go through the launcher (see IMPORT).
    const loaded = Object.values(metafile.outputs)[0].imports.filter((i) => i.kind === 'dynamic-import');
    let code = readFileSync(outfile, 'utf8');
    for (const { path } of loaded) code = code.replaceAll(`import(${JSON.stringify(path)})`, `${IMPORT}(${JSON.stringify(path)})`);
    const left = code.match(/\bimport\(.{0,40}/);
    if (left) throw new Error(`${outfile} still calls import() (${left[0]}): only the literal imports of its metafile are rewritten`);
    writeFileSync(outfile, code);
    // The cache: what V8 compiled in one run of `portal <module> --help`, in a Node started as a user starts `portal`
    // (no NODE_OPTIONS: V8 refuses a cache made with other V8 options), with an empty home.
    const home = mkdtempSync(join(tmpdir(), 'portal-build-'));
    // (`node -e CODE file word --help`: process.argv is [node, file, word, '--help'], as main.ts expects.)
    const made = `import { runBuild } from ${JSON.stringify(pathToFileURL(codeCache).href)};
runBuild(process.argv[1], { makeCache: true });`;
    try {
      await run(process.execPath, ['--input-type=module', '-e', made, outfile, wordsOf(name)[0], '--help'], {
        env: { ...process.env, NODE_OPTIONS: undefined, HOME: home, XDG_CONFIG_HOME: home, XDG_CACHE_HOME: home },
      });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
    if (!existsSync(cacheFileOf(outfile))) throw new Error(`no code cache was made for ${outfile}`);
  }),
);
rmSync(codeCache);

// The launcher: words.ts and codeCache.ts, then the chosen build. It is CommonJS (see src/launch.ts): dist/ says so in
// a package.json of its own, and dist/app/, the full build's ES modules, in another.
await build({
  ...common,
  format: 'cjs',
  entryPoints: { portal: 'src/launch.ts' },
  outdir: dist,
  entryNames: '[name]',
  banner: { js: '#!/usr/bin/env node' },
});
writeFileSync(join(dist, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
writeFileSync(join(dist, 'app', 'package.json'), `${JSON.stringify({ type: 'module' })}\n`);
chmodSync(join(dist, 'portal.js'), 0o755);
