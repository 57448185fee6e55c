import { existsSync } from 'node:fs';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The shared reference data (perft counts, rule cases, real game records) lives beside the
// repository, in ../shared/fixtures; SHOGI_FIXTURES points elsewhere when a checkout is not there.
const root = dirname(fileURLToPath(import.meta.url));
const fixtures = [process.env.SHOGI_FIXTURES, resolvePath(root, '../shared/fixtures'), '/work/shared/fixtures'].find(
  (dir): dir is string => dir !== undefined && existsSync(join(dir, 'perft.json')),
);
if (fixtures === undefined) throw new Error('shared fixtures not found: set SHOGI_FIXTURES to the fixtures folder');
const env = { SHOGI_FIXTURES: fixtures };

// The local cluster's masters (infra/start-redis-cluster.sh, REDIS_CLUSTER_PORT and the two after
// it), or the cluster REDIS_CLUSTER_NODES names: given to the integration-cluster tier only, so
// that every other tier keeps the single Redis of REDIS_URL.
const clusterBase = Number(process.env.REDIS_CLUSTER_PORT ?? 7000);
const clusterNodes = process.env.REDIS_CLUSTER_NODES || [0, 1, 2].map((i) => `127.0.0.1:${clusterBase + i}`).join(',');

// Workspace packages resolve to their TypeScript sources through this export condition,
// so tests never need a build.
//
// The unit and integration tiers share each worker's module graph between files
// (`isolate: false`): loading the sources afresh for every file cost more than the tests.
// No file mocks, stubs or fakes timers (tests/architecture/shared-test-modules.test.ts).
const resolve = { conditions: ['@shogi/source'] };
const ssr = { resolve: { conditions: ['@shogi/source'] } };

// The integration files that run again on a Redis Cluster: the pipeline, spectating, the lobby,
// the faults (a gateway killed, a job delivered twice, a worker killed), the rate limits and
// socket tickets and revocations, the per-account limits and the connection caps, the clocks'
// flag jobs, each front end that keeps state in Redis across gateways (CSA pairing and rounds, lishogi's streams, the engine role's analysis and
// house bots), and the cluster's own tests (which only run there). The other integration files
// pass there too, but those that run one Redis server by design (SINGLE_SERVER_TESTS in
// tests/architecture/redis-clients.test.ts); this subset keeps the tier's run short.
const CLUSTER_TIER = [
  'tests/integration/full-game-ws.test.ts',
  'tests/integration/two-gateways-ws.test.ts',
  'tests/integration/validate-batches.test.ts',
  'tests/integration/spectate-watch.test.ts',
  'tests/integration/spectate-two-gateways.test.ts',
  'tests/integration/live-spectators.test.ts',
  'tests/integration/lobby.test.ts',
  'tests/integration/lobby-limits.test.ts',
  'tests/integration/fault-gateway.test.ts',
  'tests/integration/fault-duplicate-job.test.ts',
  'tests/integration/worker-crash.test.ts',
  'tests/integration/abuse-limits.test.ts',
  'tests/integration/socket-auth.test.ts',
  'tests/integration/rating-farming.test.ts',
  'tests/integration/stream-caps.test.ts',
  'tests/integration/token-filter.test.ts',
  'tests/integration/clock-timeout.test.ts',
  'tests/integration/csa-two-gateways.test.ts',
  'tests/integration/csa-floodgate.test.ts',
  'tests/integration/csa-x1.test.ts',
  'tests/integration/lishogi-game.test.ts',
  'tests/integration/lishogi-events.test.ts',
  'tests/integration/analysis.test.ts',
  'tests/integration/analysis-position.test.ts',
  'tests/integration/house-bots-limits.test.ts',
  'tests/integration/house-bots-resume.test.ts',
  'tests/integration/bot-rematch.test.ts',
  'tests/integration/redis-cluster-layout.test.ts',
  'tests/integration/redis-cluster-failover.test.ts',
  'tests/integration/redis-cluster-publisher.test.ts',
];

export default defineConfig({
  test: {
    env,
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
          isolate: false,
          include: ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts', 'tests/architecture/**/*.test.ts'],
        },
      },
      {
        resolve,
        ssr,
        test: {
          name: 'integration',
          sequence: { groupOrder: 1 },
          isolate: false,
          include: ['tests/integration/**/*.test.ts'],
          exclude: ['tests/integration/redis-cluster-*.test.ts'],
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
          // a named subset of the integration tier on a local three-master Redis Cluster
          // (infra/start-redis-cluster.sh; docs/testing.md#on-a-redis-cluster), and the failover test
          name: 'integration-cluster',
          isolate: false,
          env: { ...env, REDIS_CLUSTER_NODES: clusterNodes },
          sequence: { groupOrder: 2 },
          include: CLUSTER_TIER,
          globalSetup: ['tests/setup/services.ts', 'tests/setup/redis-cluster.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          maxWorkers: 2,
        },
      },
      {
        resolve,
        ssr,
        test: {
          // the web client in headless Chromium (/usr/bin/chromium) against a real gateway + worker
          name: 'e2e',
          sequence: { groupOrder: 3 },
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/setup/services.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
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
