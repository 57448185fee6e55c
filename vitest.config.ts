import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources through this export condition,
// so tests never need a build.
const resolve = { conditions: ['@shogi/source'] };
const ssr = { resolve: { conditions: ['@shogi/source'] } };

export default defineConfig({
  test: {
    // CI reads the JSON report for its closing "N passed, N failed" line
    reporters: ['default', 'json'],
    outputFile: { json: 'test-artifacts/vitest.json' },
    projects: [
      {
        resolve,
        ssr,
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
          include: ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts'],
        },
      },
      {
        resolve,
        ssr,
        test: {
          name: 'integration',
          sequence: { groupOrder: 1 },
          include: ['tests/integration/**/*.test.ts'],
          globalSetup: ['tests/setup/services.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // each file gets its own database and queue prefix; two cores limit useful parallelism
          maxWorkers: 2,
        },
      },
      {
        resolve,
        ssr,
        test: {
          name: 'slow',
          sequence: { groupOrder: 2 },
          include: ['packages/*/test/**/*.slow.ts'],
          testTimeout: 600_000,
        },
      },
    ],
  },
});
