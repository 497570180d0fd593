// Run once before the terminal's end-to-end files (vitest.cli.config.ts's globalSetup, so no vitest import here): the
// CLI they all run is built here, not by each file, so none finds it half-made while another rebuilds it, and files
// can run side by side.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
export const PORTAL = join(ROOT, 'packages/tui/dist/portal.js');
export const SERVER = join(ROOT, 'packages/server/dist/main.js');
const PNPM = join(ROOT, '.tools/node_modules/pnpm/bin/pnpm.cjs');

/**
 * Builds `portal`, and the server when missing (the cluster test calls it itself). Under `npm test`, which has just
 * built every package (PORTAL_TEST_BUILT), there is nothing to do.
 */
export function build(): void {
  if (process.env.PORTAL_TEST_BUILT) return;
  execFileSync(process.execPath, [join(ROOT, 'packages/tui/build.mjs')], { stdio: 'inherit' });
  if (!existsSync(SERVER))
    execFileSync(process.execPath, [PNPM, '--filter', '@portal/server', 'run', 'build'], { cwd: ROOT, stdio: 'inherit' });
}

export default build;
