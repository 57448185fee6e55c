/**
 * Where Redis is: one server (`REDIS_URL`) or a Redis Cluster (`REDIS_CLUSTER_NODES`, a few of
 * its nodes to start from; the client learns the rest). Pure: read from the environment once
 * by each process's configuration and handed to `redisClient`.
 */

export interface ClusterNode {
  readonly host: string;
  readonly port: number;
}

export interface RedisTarget {
  /** the single Redis; on a cluster, only its user, password and TLS apply (to every node) */
  readonly redisUrl: string;
  /** seed nodes of a Redis Cluster; empty or absent: the single Redis at `redisUrl` */
  readonly redisClusterNodes?: readonly ClusterNode[];
}

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

export const onCluster = (target: RedisTarget): boolean => (target.redisClusterNodes?.length ?? 0) > 0;

// host:port, [ipv6]:port
const NODE = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/;

/**
 * `host:port,host:port,…` (an IPv6 host in brackets); an empty or absent value is no cluster.
 * Throws with the variable's name and what is wrong, so a process stops at start-up on a typo.
 */
export function clusterNodesOf(raw: string | undefined, name = 'REDIS_CLUSTER_NODES'): ClusterNode[] {
  if (raw === undefined || raw.trim() === '') return [];
  return raw.split(',').map((item) => {
    const match = NODE.exec(item.trim());
    const port = Number(match?.[3]);
    const host = match?.[1] ?? match?.[2];
    if (host === undefined || !Number.isInteger(port) || port < 1 || port > 65_535)
      throw new Error(`${name} must be host:port,host:port,… (e.g. 127.0.0.1:7000,127.0.0.1:7001), got "${raw}"`);
    return { host, port };
  });
}

/** The nodes as REDIS_CLUSTER_NODES writes them (an IPv6 host in brackets): what `clusterNodesOf` reads back. */
export const clusterNodesText = (nodes: readonly ClusterNode[]): string =>
  nodes.map((n) => `${n.host.includes(':') ? `[${n.host}]` : n.host}:${n.port}`).join(',');

/** REDIS_URL and REDIS_CLUSTER_NODES of an environment. */
export function redisTargetFromEnv(env: Readonly<Record<string, string | undefined>>): Required<RedisTarget> {
  return {
    redisUrl: env.REDIS_URL === undefined || env.REDIS_URL === '' ? DEFAULT_REDIS_URL : env.REDIS_URL,
    redisClusterNodes: clusterNodesOf(env.REDIS_CLUSTER_NODES),
  };
}

/** How logs and errors name the target (no credentials). */
export function describeTarget(target: RedisTarget): string {
  if (onCluster(target)) return `the Redis Cluster at ${clusterNodesText(target.redisClusterNodes ?? [])}`;
  return target.redisUrl.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}
