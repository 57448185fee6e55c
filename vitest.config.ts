import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources through this export condition,
// so tests never need a build.
const resolve = { conditions: ['@shogi/source'] };
const ssr = { resolve: { conditions: ['@shogi/source'] } };

export default defineConfig({
  test: {
    projects: [
      {
        resolve,
        ssr,
        test: {
          name: 'unit',
          include: ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts'],
        },
      },
      {
        resolve,
        ssr,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
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
          include: ['packages/*/test/**/*.slow.ts'],
          testTimeout: 600_000,
        },
      },
    ],
  },
});
