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
  },
});
