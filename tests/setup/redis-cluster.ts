/**
 * Global setup of the integration-cluster tier: the local Redis Cluster of
 * infra/start-redis-cluster.sh (three masters, one replica each), started unless it is up,
 * and REDIS_CLUSTER_NODES for the test files, which then run every Redis use on it. A
 * cluster named by REDIS_CLUSTER_NODES already is used as it is. Left running afterwards,
 * like the single Redis (`infra/start-redis-cluster.sh stop` stops it).
 */
import { execFileSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = resolve(dirname(fileURLToPath(import.meta.url)), '../../infra/start-redis-cluster.sh');

export default function setup(): void {
  if (process.env.REDIS_CLUSTER_NODES !== undefined && process.env.REDIS_CLUSTER_NODES !== '') return;
  execFileSync(SCRIPT, ['start'], { stdio: ['ignore', 'ignore', 'inherit'] });
  // test workers start after global setup and inherit it
  process.env.REDIS_CLUSTER_NODES = execFileSync(SCRIPT, ['nodes'], { encoding: 'utf8' }).trim();
}
