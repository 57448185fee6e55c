/**
 * Global setup of the integration tier: real PostgreSQL and Redis, never mocks.
 *  - DATABASE_URL / REDIS_URL set: use them.
 *  - else, where a Docker engine runs: throwaway containers from testcontainers.
 *  - else (the CI machine): the local services on their standard ports.
 * Fails fast, with the fix spelled out, when none is reachable.
 */
import { Socket } from 'node:net';

const HOW_TO_START = `Start them with:
  infra/start-services.sh
(or: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start
     redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no
 or, with Docker: docker compose up -d postgres redis)
and point DATABASE_URL / REDIS_URL at them if they are not on localhost.`;

const LOCAL_DATABASE = 'postgres://postgres@localhost:5432/postgres';
const LOCAL_REDIS = 'redis://127.0.0.1:6379';

function reachable(url: string, defaultPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url);
  const socket = new Socket();
  return new Promise<boolean>((resolve) => {
    socket.setTimeout(2000);
    socket.once('connect', () => resolve(true));
    socket.once('timeout', () => resolve(false));
    socket.once('error', () => resolve(false));
    socket.connect(Number(port || defaultPort), hostname || '127.0.0.1');
  }).finally(() => socket.destroy());
}

interface Stoppable {
  stop(): Promise<unknown>;
}

/** Starts PostgreSQL and Redis containers when a container runtime answers; null otherwise. */
async function startContainers(): Promise<{ database: string; redis: string; containers: Stoppable[] } | null> {
  const tc = await import('testcontainers');
  try {
    await tc.getContainerRuntimeClient();
  } catch {
    return null; // no Docker engine (the CI machine): use the local services
  }
  const postgres = await new tc.GenericContainer('postgres:16-alpine')
    .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
    .withExposedPorts(5432)
    .withWaitStrategy(tc.Wait.forLogMessage(/database system is ready to accept connections/, 2))
    .start();
  const redis = await new tc.GenericContainer('redis:7-alpine')
    .withCommand(['redis-server', '--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction'])
    .withExposedPorts(6379)
    .start();
  return {
    database: `postgres://postgres@${postgres.getHost()}:${postgres.getMappedPort(5432)}/postgres`,
    redis: `redis://${redis.getHost()}:${redis.getMappedPort(6379)}`,
    containers: [postgres, redis],
  };
}

export default async function setup(): Promise<() => Promise<void>> {
  let containers: Stoppable[] = [];
  if (process.env.DATABASE_URL === undefined && process.env.REDIS_URL === undefined) {
    const started = await startContainers();
    if (started) {
      // test workers start after global setup and inherit these
      process.env.DATABASE_URL = started.database;
      process.env.REDIS_URL = started.redis;
      containers = started.containers;
    }
  }
  const database = process.env.DATABASE_URL ?? LOCAL_DATABASE;
  const redis = process.env.REDIS_URL ?? LOCAL_REDIS;
  const missing: string[] = [];
  if (!(await reachable(database, 5432))) missing.push(`PostgreSQL (${database})`);
  if (!(await reachable(redis, 6379))) missing.push(`Redis (${redis})`);
  if (missing.length > 0) throw new Error(`The integration tests need ${missing.join(' and ')}.\n${HOW_TO_START}`);
  return async () => {
    await Promise.all(containers.map((c) => c.stop()));
  };
}
