// End-to-end tests of the built `portal` CLI against a started server (run from tests/: pnpm run test:cli).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'cli-e2e',
    include: ['cli/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // One server per file; files run one at a time: each builds the CLI it runs (tests/cli/harness.ts rebuilds
    // packages/tui/dist), which another file running beside it would find half-made.
    fileParallelism: false,
  },
});
