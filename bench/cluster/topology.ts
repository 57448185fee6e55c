/**
 * The server as two gateways and two workers (`node apps/server/dist/main.js --role ...`),
 * each its own process, on a scratch database and Redis key prefix of their own, on one Redis
 * or on a Redis Cluster; and what each Redis master did meanwhile (INFO per node).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { type ClusterNode, closeClient, clusterNodesOf, mastersOf, type RedisTarget, redisClient } from '@shogi/redis';
import { createTestDatabase } from '@shogi/store/testing';
import { sql } from 'kysely';
import { BENCH_CLIENT_LIMITS_OFF, clusterEnv, deleteKeys, exited, serverMainOf } from '../e2e/fresh-server.js';
import { freePort, waitHealthy } from '../e2e/server-process.js';

export interface Topology {
  /** the gateways' base URLs */
  readonly urls: readonly string[];
  readonly prefix: string;
  /** the moves validated so far (MoveAccepted events in the scratch database) */
  movesAccepted(): Promise<number>;
  stop(): Promise<void>;
}

export async function startTopology(
  target: RedisTarget,
  env: Readonly<Record<string, string>> = {},
): Promise<Topology> {
  const main = serverMainOf('.');
  const prefix = `bench${randomBytes(4).toString('hex')}`;
  const database = await createTestDatabase({ max: 1, migrate: false });
  const children: ChildProcess[] = [];
  // CLUSTER_SERVER_ARGS: extra node flags for every server process (e.g. --cpu-prof --cpu-prof-dir=/tmp/prof)
  const extra = (process.env.CLUSTER_SERVER_ARGS ?? '').split(' ').filter((a) => a !== '');
  const start = (role: 'gateway' | 'worker', port: number) => {
    const child = spawn(process.execPath, [...extra, main, '--role', role, '--no-demo'], {
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        REDIS_URL: target.redisUrl,
        ...clusterEnv(target.redisClusterNodes),
        PORT: String(port),
        LOG_LEVEL: 'warn',
        QUEUE_PREFIX: prefix,
        CHANNEL_PREFIX: `${prefix}:`,
        ...BENCH_CLIENT_LIMITS_OFF,
        ...env,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    children.push(child);
    return child;
  };
  const stop = async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.all(children.map(exited));
    await database.drop();
    await deleteKeys(target, `${prefix}*`);
    await deleteKeys(target, `{${prefix}:*`);
  };
  try {
    // the first gateway migrates the scratch database before the others start
    const ports = [await freePort(), await freePort()];
    const urls = ports.map((p) => `http://127.0.0.1:${p}`);
    const first = start('gateway', ports[0] as number);
    await waitHealthy(urls[0] as string, first);
    const second = start('gateway', ports[1] as number);
    const workers = [start('worker', 0), start('worker', 0)];
    await waitHealthy(urls[1] as string, second);
    // a worker has no HTTP port: it is up once it has not exited for a moment after the gateways
    await new Promise((r) => setTimeout(r, 3000));
    for (const w of workers) if (w.exitCode !== null) throw new Error(`a worker exited (${w.exitCode})`);
    const movesAccepted = async () => {
      const { rows } = await sql<{
        n: string;
      }>`select count(*) as n from game_events where type = 'MoveAccepted'`.execute(database.db);
      return Number(rows[0]?.n ?? 0);
    };
    return { urls, prefix, movesAccepted, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Commands run and keys held by each master, as INFO gives them. */
export interface MasterStats {
  readonly node: string;
  readonly commands: number;
  /** calls by command (`evalsha`, `xadd`, ...) */
  readonly calls: ReadonlyMap<string, number>;
  /** the time spent in each command, µs (INFO commandstats' usec) */
  readonly usec: ReadonlyMap<string, number>;
  readonly keys: number;
}

export async function masterStats(target: RedisTarget): Promise<MasterStats[]> {
  const client = redisClient(target, 'bench-info', { lazyConnect: true });
  try {
    // a cluster's client knows its masters once connected
    await client.connect();
    const masters = mastersOf(client);
    return await Promise.all(
      masters.map(async (node) => {
        const commandstats = await node.info('commandstats');
        const calls = new Map(
          [...commandstats.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)].map((m) => [m[1] as string, Number(m[2])]),
        );
        const usec = new Map(
          [...commandstats.matchAll(/^cmdstat_([^:]+):calls=\d+,usec=(\d+)/gm)].map((m) => [
            m[1] as string,
            Number(m[2]),
          ]),
        );
        const commands = [...calls.values()].reduce((n, c) => n + c, 0);
        return { node: `${node.options.host}:${node.options.port}`, commands, calls, usec, keys: await node.dbsize() };
      }),
    );
  } finally {
    await closeClient(client);
  }
}

/** A local cluster of infra/start-redis-cluster.sh's, started unless it is up: its nodes. */
export const localCluster = (masters: 1 | 3, replicas: '0' | '1', port: number): ClusterNode[] => {
  const env = {
    ...process.env,
    REDIS_CLUSTER_MASTERS: String(masters),
    REDIS_CLUSTER_REPLICAS: replicas,
    REDIS_CLUSTER_PORT: String(port),
  };
  execFileSync('infra/start-redis-cluster.sh', ['start'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  return clusterNodesOf(execFileSync('infra/start-redis-cluster.sh', ['nodes'], { env, encoding: 'utf8' }).trim());
};
