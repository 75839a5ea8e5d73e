import { defineConfig } from 'vitest/config';

/**
 * Two tiers. `npm test` (fast): units, the app through `inject`, the database tests and the CLI
 * through `runCli`, all in this process tree. `npm run test:system`: what needs real processes,
 * signals, browsers or real time: test/system/, and the browser tests in test/browser/ and
 * test/render/. CI runs both (.ci/run).
 */
const SYSTEM = ['test/system/**/*.test.ts', 'test/browser/**/*.test.ts', 'test/render/**/*.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        // More forks than cores: most of these tests wait on loopback sockets and databases.
        test: { name: 'fast', include: ['src/**/*.test.ts', 'test/**/*.test.ts'], exclude: SYSTEM, maxWorkers: 3 },
      },
      {
        extends: true,
        // Each file starts processes or a browser of its own: two files at once keep both cores busy.
        test: { name: 'system', include: SYSTEM, maxWorkers: 2 },
      },
    ],
  },
});
