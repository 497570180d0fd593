// Bundles `portal` with esbuild, in three parts:
// - dist/app/: the full build, every command and the terminal UI (Ink and React), split into chunks loaded on demand;
// - dist/cmd/<module>/: one build per module of the CLI (projects, uploads, ...), holding the program and that module
//   alone. A command line that names one module runs there: it loads a handful of files where the full build's
//   shared chunks made it about thirty (see bench/cli/README.md);
// - dist/portal.js: the launcher, which picks the build from the command line's words (src/cli/words.ts).
import { build } from 'esbuild';
import { readFileSync, rmSync, mkdirSync, writeFileSync, chmodSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
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

const common = {
  absWorkingDir: here,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
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
const { OWN_BUILD, MODULE_WORDS } = await import(
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
    // What every command of the module needs is loaded with the program, not on demand: the module itself, and each
    // import marked `/* eager in module builds */` (the API client, the config folder). One chunk then holds them all
    // instead of a dozen split along those imports.
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
      const r = await b.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: 'resolving',
      });
      if (r.errors.length) return { errors: r.errors };
      // The portal's own packages (@portal/core) are part of the module's build like its other sources.
      if (!/[\\/]node_modules[\\/]/.test(r.path)) return r;
      const target = relative(join(dist, 'cmd', name), appChunkFor(r.path));
      return { path: target.startsWith('.') ? target : `./${target}`, external: true };
    });
  },
});

await Promise.all(
  OWN_BUILD.map((name) =>
    build({
      ...common,
      entryPoints: { portal: 'src/main.ts' },
      outdir: join(dist, 'cmd', name),
      splitting: true,
      // One folder: the full build's chunks are reached by the same relative path from every file.
      chunkNames: '[name]-[hash]',
      entryNames: '[name]',
      plugins: [ofetchStandard, commanderLazySpawn, moduleOnly(name)],
    }),
  ),
);

// The launcher: words.ts and nothing else, then the chosen build.
await build({
  ...common,
  entryPoints: { portal: 'src/launch.ts' },
  outdir: dist,
  entryNames: '[name]',
  banner: { js: '#!/usr/bin/env node' },
});
chmodSync(join(dist, 'portal.js'), 0o755);
