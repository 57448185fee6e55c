/**
 * Global setup of the integration-cluster tier: the local Redis Cluster of
 * infra/start-redis-cluster.sh (three masters, one replica each), started unless it is up.
 * The tier's files get REDIS_CLUSTER_NODES from their project's env (vitest.config.ts), not
 * from here: a global setup's process.env reaches every project's workers, and the other
 * tiers must stay on the single Redis. A cluster named by REDIS_CLUSTER_NODES already is used
 * as it is. Left running afterwards, like the single Redis (`infra/start-redis-cluster.sh stop`
 * stops it).
 */
import { execFileSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = resolve(dirname(fileURLToPath(import.meta.url)), '../../infra/start-redis-cluster.sh');

export default function setup(): void {
  if (process.env.REDIS_CLUSTER_NODES !== undefined && process.env.REDIS_CLUSTER_NODES !== '') return;
  execFileSync(SCRIPT, ['start'], { stdio: ['ignore', 'ignore', 'inherit'] });
}
