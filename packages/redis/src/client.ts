/**
 * The one way a process opens a Redis connection: `redisClient(target, role, options)` gives
 * an ioredis `Redis` for a single server and an ioredis `Cluster` when the target names
 * cluster nodes, with the same options meaning the same on both. Every app, CLI and bench
 * goes through here (tests/architecture/redis-clients.test.ts), so a new use cannot miss
 * the cluster.
 */
import { metrics } from '@shogi/metrics';
import { Cluster, type ClusterOptions, Redis, type RedisOptions } from 'ioredis';
import { type ClusterNode, onCluster, type RedisTarget } from './target.js';

export type RedisClient = Redis | Cluster;

/** The options a caller may set; they mean the same for one server and for a cluster. */
export interface ClientOptions {
  readonly lazyConnect?: boolean;
  /** null: retry forever (BullMQ's workers require it) */
  readonly maxRetriesPerRequest?: number | null;
  readonly enableOfflineQueue?: boolean;
  readonly enableAutoPipelining?: boolean;
  readonly connectTimeout?: number;
  /** false: never reconnect (a one-shot probe) */
  readonly reconnect?: boolean;
  /**
   * A connection that will listen (channelSubscriber). On a cluster only these keep ioredis'
   * sharded subscribers (a connection per master, re-mapped at every slots refresh): the many
   * command and queue connections, BullMQ's duplicates among them, do without that upkeep.
   */
  readonly subscriber?: boolean;
}

/**
 * While a master is down and before its replica is promoted (the cluster's node timeout), its
 * slots answer nothing or CLUSTERDOWN: commands wait and retry on this period, not at once.
 */
const CLUSTER_RETRY_MS = 200;

export function redisClient(target: RedisTarget, role: string, options: ClientOptions = {}): RedisClient {
  const connectionName = `shogi-${role.replace(/[^A-Za-z0-9_-]/g, '-')}`;
  return counted(role, connect(target, connectionName, options));
}

/**
 * Errors and reconnections counted by the connection's role (a fixed name per use: bounded
 * labels). Counting is a listener like any other: ioredis no longer prints its "unhandled
 * error event" for a connection whose owner added none, which every long-lived owner does.
 */
function counted(role: string, client: RedisClient): RedisClient {
  client.on('error', () => metrics.redisErrors.inc({ connection: role }));
  client.on('reconnecting', () => metrics.redisReconnects.inc({ connection: role }));
  return client;
}

function connect(target: RedisTarget, connectionName: string, options: ClientOptions): RedisClient {
  const { reconnect, lazyConnect, enableOfflineQueue, enableAutoPipelining, subscriber, ...perConnection } = options;
  if (!onCluster(target)) {
    return new Redis(target.redisUrl, {
      connectionName,
      ...perConnection,
      ...defined({ lazyConnect, enableOfflineQueue, enableAutoPipelining }),
      ...(reconnect === false ? { retryStrategy: () => null } : {}),
    } satisfies RedisOptions);
  }
  const clusterOptions: ClusterOptions = {
    ...defined({ lazyConnect, enableOfflineQueue, enableAutoPipelining }),
    // SSUBSCRIBE goes to the master of each channel's slot, resubscribed after a failover
    shardedSubscribers: subscriber === true,
    retryDelayOnFailover: CLUSTER_RETRY_MS,
    retryDelayOnClusterDown: CLUSTER_RETRY_MS,
    retryDelayOnTryAgain: CLUSTER_RETRY_MS,
    ...(reconnect === false ? { clusterRetryStrategy: () => null } : {}),
    redisOptions: { connectionName, ...credentialsOf(target.redisUrl), ...perConnection },
  };
  return new Cluster(
    (target.redisClusterNodes ?? []).map((n: ClusterNode) => ({ host: n.host, port: n.port })),
    clusterOptions,
  );
}

export const isCluster = (client: RedisClient): client is Cluster => client instanceof Cluster;

/**
 * QUIT when connected (what was sent is answered first); a connection that never connected,
 * or is gone, is only dropped.
 */
export async function closeClient(client: RedisClient): Promise<void> {
  if (client.status === 'wait' || client.status === 'end') {
    client.disconnect();
    return;
  }
  await client.quit().catch(() => client.disconnect());
}

/** The user, password and TLS of a redis:// or rediss:// URL, for every node of a cluster. */
function credentialsOf(url: string): Pick<RedisOptions, 'username' | 'password' | 'tls'> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return {};
  }
  return {
    ...(parsed.username === '' ? {} : { username: decodeURIComponent(parsed.username) }),
    ...(parsed.password === '' ? {} : { password: decodeURIComponent(parsed.password) }),
    ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}

/** The entries whose value is set (exactOptionalPropertyTypes: ioredis' options take no undefined). */
function defined<T extends Record<string, unknown>>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}
