// End-to-end tests of the built `portal` CLI against a started server (run from tests/: pnpm run test:cli).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'cli-e2e',
    include: ['cli/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // The CLI is built once before any file (cli/setup.ts), so files may run side by side: each has its own server,
    // homes and tmux socket. Two at a time, as the unit step: a file spends most of its time waiting on its server and
    // the commands it runs.
    globalSetup: ['cli/setup.ts'],
    maxWorkers: 2,
    minWorkers: 1,
  },
});
