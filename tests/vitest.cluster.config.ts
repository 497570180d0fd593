// The scale-out test: deploy/local-cluster (PostgreSQL, s3rver, 3 API processes, 2 workers, nginx) under failures.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'cluster',
    include: ['cluster/**/*.test.ts'],
    environment: 'node',
    testTimeout: 180_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    // The cluster's processes take the test's environment (deploy/local-cluster.mjs): every API process checks its
    // answers against the contract, and one outside it is a 500 that fails the command that asked for it.
    env: { PORTAL_CHECK_ANSWERS: '1' },
  },
});
