// Bundles the server into dist/main.js: our workspace packages inlined, npm packages left to node_modules.
import { build } from 'esbuild';
import { chmod } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from './node-flags.mjs';

// Paths are this package's, wherever the build is started from.
const here = dirname(fileURLToPath(import.meta.url));

await build({
  absWorkingDir: here,
  // The processing thread is its own file: worker_threads load it by path next to main.js.
  // So is the embedded database's thread (src/db/pglite-thread.mjs), which embedded-thread.ts finds beside main.js.
  entryPoints: { main: 'src/main.ts', 'processing-thread': 'src/worker/thread.ts', 'pglite-thread': 'src/db/pglite-thread.mjs' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  // npm packages stay in node_modules; @portal/* is TypeScript source and is bundled, with what it imports
  // (zod, ofetch), since those are core's dependencies and not resolvable from this package at run time.
  plugins: [
    {
      name: 'externals',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) => {
          // What a bundled package imports is bundled too (ofetch's node-fetch-native, destr, ufo): it is not
          // resolvable from this package either.
          const bundled = args.importer.includes('/packages/core/') || args.importer.includes('/node_modules/');
          if (args.kind === 'entry-point' || args.path.startsWith('@portal/') || bundled) return undefined;
          return { path: args.path, external: true };
        });
      },
    },
  ],
  banner: {
    // The command's first line starts Node with the server's flags (node-flags.mjs).
    js: `#!/usr/bin/env -S node ${SERVER_NODE_FLAGS.join(' ')}\nimport { createRequire as __portalCreateRequire } from 'node:module';\nconst require = __portalCreateRequire(import.meta.url);`,
  },
  logLevel: 'warning',
});
await chmod(join(here, 'dist/main.js'), 0o755);
console.log('server built: dist/main.js');
