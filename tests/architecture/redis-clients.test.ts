/**
 * Every Redis connection of the apps, packages and benches comes from @shogi/redis'
 * `redisClient`, which gives a Redis Cluster client when REDIS_CLUSTER_NODES is set: a
 * connection made with ioredis directly would talk to one node of a cluster and fail on the
 * others' keys. Only packages/redis may import ioredis' classes (types are free).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const ALLOWED = 'packages/redis/';

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'dist' || entry === 'test') continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (/\.(ts|mts|js|mjs)$/.test(entry) && !entry.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** `new Redis(`, `new Cluster(`, or a value import of ioredis (not `import type`). */
const DIRECT = [/\bnew\s+(?:Redis|Cluster|IORedis)\s*\(/, /^\s*import\s+(?!type\b)[^;]*from\s+['"]ioredis['"]/m];

it('no app, package or bench opens a Redis connection but through @shogi/redis', () => {
  const files = ['apps', 'packages', 'bench'].flatMap((top) =>
    readdirSync(join(root, top)).flatMap((ws) => {
      const dir = join(root, top, ws, top === 'bench' ? '' : 'src');
      try {
        return sources(dir);
      } catch {
        return [];
      }
    }),
  );
  expect(files.length).toBeGreaterThan(50);
  const offenders = files
    .map((f) => relative(root, f))
    .filter((f) => !f.startsWith(ALLOWED))
    .filter((f) => DIRECT.some((re) => re.test(readFileSync(join(root, f), 'utf8'))));
  expect(offenders).toEqual([]);
});

/**
 * The integration files that run on one Redis server by design: each starts a Redis of its own
 * and kills it (the cluster's counterpart is redis-cluster-failover), or tests a single server's
 * classic pub/sub client itself.
 */
const SINGLE_SERVER_TESTS = [
  'tests/integration/channel-publisher.test.ts',
  'tests/integration/channel-subscriber.test.ts',
  'tests/integration/fault-redis.test.ts',
  'tests/integration/fault-redis-enqueue.test.ts',
  'tests/integration/local-delivery.test.ts',
  'tests/integration/private-redis.ts',
  'tests/integration/spectate-redis-restart.test.ts',
  'tests/integration/token-filter-redis-restart.test.ts',
];

it("every other test reaches Redis through the harness, so that it follows the tier's Redis (a cluster or not)", () => {
  const dirs = ['tests/integration', 'tests/e2e'];
  const files = dirs.flatMap((dir) => sources(join(root, dir))).map((f) => relative(root, f));
  expect(files.length).toBeGreaterThan(50);
  // a connection of its own, or the single server's URL alone where a target (URL and cluster nodes) belongs
  const bypass = [...DIRECT, /\bREDIS_URL\b/];
  const offenders = files
    .filter((f) => f !== 'tests/integration/harness.ts' && !SINGLE_SERVER_TESTS.includes(f))
    .filter((f) => bypass.some((re) => re.test(readFileSync(join(root, f), 'utf8'))));
  expect(offenders).toEqual([]);
});
