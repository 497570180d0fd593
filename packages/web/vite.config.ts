// Vite build of the browser portal: served by the server on the same origin; in dev, /api and /pay go to the local server.
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const target = process.env.PORTAL_API ?? 'http://localhost:8080';
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|ico|txt)$/;

/** Writes file.br and file.gz beside every text asset of the build, at the highest levels, so the server never compresses per request. */
export function precompress(): Plugin {
  let outDir = '';
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : [path];
    });
  return {
    name: 'portal-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const file of walk(outDir).filter((f) => COMPRESSIBLE.test(f))) {
        const bytes = readFileSync(file);
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(bytes, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
          }),
        );
        writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 700,
    rollupOptions: {
      // zod's own sources (4.6) have prose comments that mention `@__PURE__` where Rollup reads annotations: Rollup
      // drops each comment and says so on every build. The comments are zod's to word; its code is unaffected, so
      // that one notice, for files under node_modules only, is not printed. Every other warning still is.
      onwarn(warning, warn) {
        if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('/node_modules/')) return;
        warn(warning);
      },
    },
  },
  server: {
    proxy: {
      '/api': { target, changeOrigin: true },
      '/pay': { target, changeOrigin: true },
    },
  },
});
