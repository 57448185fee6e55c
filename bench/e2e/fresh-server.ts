/**
 * The built server started alone on a scratch database and its own Redis key prefixes, and
 * everything it made dropped when it stops: what `bench:e2e:fresh` (fresh-run.ts) and
 * `bench:engine:latency` run their benches against.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { type ClusterNode, closeClient, clusterNodesText, type RedisTarget, redisClient, scanKeys } from '@shogi/redis';
import { createTestDatabase } from '@shogi/store/testing';
import { freePort, waitHealthy } from './server-process.js';

/**
 * The bench's players all come from this address: two guests and their two player sockets
 * per game slot, and a challenge and its acceptance per game.
 */
export const BENCH_CLIENT_LIMITS_OFF: Readonly<Record<string, string>> = {
  RATE_LIMIT_GUESTS_MAX: '0',
  SOCKET_MAX_PER_IP: '0',
  RATE_LIMIT_LOBBY_MAX: '0',
  RATE_LIMIT_LOBBY_IP_MAX: '0',
  // no CSA listener unless a bench asks for one (bench/csa): 4081 may be taken on the machine
  CSA_PORT: '0',
};

export interface FreshServerOptions {
  /** a built checkout (this one: '.') */
  readonly serverDir: string;
  /** default: a free one */
  readonly port?: number;
  /** for the server's node, e.g. `--import ./x.mjs` */
  readonly nodeFlags?: readonly string[];
  /** the launcher's arguments (default `--no-demo`: the default role, all) */
  readonly args?: readonly string[];
  /** over the defaults and BENCH_CLIENT_LIMITS_OFF */
  readonly env?: Readonly<Record<string, string>>;
  readonly redisUrl: string;
  /** a Redis Cluster's nodes (REDIS_CLUSTER_NODES) the server runs on instead of `redisUrl` */
  readonly redisClusterNodes?: readonly ClusterNode[];
}

export interface FreshServer {
  readonly url: string;
  readonly redisUrl: string;
  /** the run's BullMQ prefix (QUEUE_PREFIX), for benches that read its queues */
  readonly prefix: string;
  /** the scratch database's, for benches that read its statistics */
  readonly databaseUrl: string;
  readonly child: ChildProcess;
  /** SIGTERM, then the database dropped and the run's Redis keys deleted. */
  stop(): Promise<void>;
}

export const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : once(child, 'exit').then(() => undefined);

/** The path of the built launcher in `serverDir`; throws with what to do when it is missing. */
export function serverMainOf(serverDir: string): string {
  const main = resolve(serverDir, 'apps/server/dist/main.js');
  if (!existsSync(main)) throw new Error(`${main} is missing: run \`npm run build\` in ${resolve(serverDir)} first`);
  return main;
}

/** `NAME=VALUE` pairs (from repeated `--env`) as an object; throws on one without `=`. */
export function envPairs(pairs: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    pairs.map((kv) => {
      const i = kv.indexOf('=');
      if (i <= 0) throw new Error(`--env wants NAME=VALUE, got "${kv}"`);
      return [kv.slice(0, i), kv.slice(i + 1)];
    }),
  );
}

/** Deletes the keys matching `pattern` on every master, one UNLINK a key (a cluster's keys of one batch may lie in several slots). */
export async function deleteKeys(target: RedisTarget, pattern: string): Promise<number> {
  const redis = redisClient(target, 'bench-cleanup');
  let deleted = 0;
  try {
    for await (const keys of scanKeys(redis, pattern))
      deleted += (await Promise.all(keys.map((k) => redis.unlink(k)))).reduce((a, b) => a + b, 0);
  } finally {
    await closeClient(redis);
  }
  return deleted;
}

/** REDIS_CLUSTER_NODES for a child process: the nodes, or empty (not this process's value) for one Redis. */
export const clusterEnv = (nodes: readonly ClusterNode[] | undefined): { REDIS_CLUSTER_NODES: string } => ({
  REDIS_CLUSTER_NODES: clusterNodesText(nodes ?? []),
});

/** Resolves once the server answers its health check; on failure, what it made is dropped. */
export async function startFreshServer(options: FreshServerOptions): Promise<FreshServer> {
  const serverMain = serverMainOf(options.serverDir);
  // a free port unless told: another server already on a fixed one would answer the health check
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  // the run's own queues and channels: nothing left by another run (or a running server) is read
  const prefix = `bench${randomBytes(4).toString('hex')}`;
  const database = await createTestDatabase({ max: 1, migrate: false });
  const child = spawn(
    process.execPath,
    [...(options.nodeFlags ?? []), serverMain, ...(options.args ?? ['--no-demo'])],
    {
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        REDIS_URL: options.redisUrl,
        ...clusterEnv(options.redisClusterNodes),
        PORT: String(port),
        LOG_LEVEL: 'warn',
        QUEUE_PREFIX: prefix,
        CHANNEL_PREFIX: `${prefix}:`,
        ...BENCH_CLIENT_LIMITS_OFF,
        ...options.env,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  let stopped: Promise<void> | null = null;
  const stop = () => {
    stopped ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited(child);
      }
      await database.drop();
      // on a cluster the queues' keys start with their hash tag, `{<prefix>:<queue>}`
      await deleteKeys(options, `${prefix}*`);
      if (options.redisClusterNodes?.length) await deleteKeys(options, `{${prefix}:*`);
    })();
    return stopped;
  };
  try {
    await waitHealthy(url, child);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, redisUrl: options.redisUrl, prefix, databaseUrl: database.url, child, stop };
}
