// One vitest run for every package's unit and integration tests (end-to-end suites live in tests/).
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Two files at a time (vitest's default here is one less than the cores, so one): a server test spends most of
    // its time waiting on its server, its database and its worker.
    maxWorkers: 2,
    minWorkers: 1,
    projects: [
      // Rendering tests wait on conditions; the limit only bounds a hung test, so a busy machine does not fail them.
      { test: { name: 'core', root: 'packages/core', include: ['src/**/*.test.{ts,tsx}'], environment: 'node', testTimeout: 30_000 } },
      {
        test: {
          name: 'server',
          root: 'packages/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      // The clients' tests that need the real server (core's client, pipeline, flows and hooks) live with the test kit.
      {
        test: {
          name: 'testkit',
          root: 'packages/testkit',
          include: ['test/**/*.test.{ts,tsx}'],
          environment: 'node',
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'tui',
          root: 'packages/tui',
          include: ['src/**/*.test.{ts,tsx}'],
          // An absolute path: relative ones are read from the project's root by vitest and from this folder by knip.
          setupFiles: [join(import.meta.dirname, 'packages/tui/test/setup.ts')],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
      // Not vitest's 'jsdom' environment: it resolves jsdom 31, which needs Node 22. Core's and web's tests
      // install core's jsdom 29 window first (@portal/core/testing/dom), which runs on Node 20.
      { test: { name: 'web', root: 'packages/web', include: ['src/**/*.test.{ts,tsx}'], environment: 'node', testTimeout: 30_000 } },
    ],
  },
});
