// End-to-end tests of the built `portal` CLI against a started server (run from tests/: pnpm run test:cli).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'cli-e2e',
    include: ['cli/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // One server per file, two files at a time: a file spends most of its time waiting on its server and worker.
    maxWorkers: 2,
    minWorkers: 1,
  },
});
