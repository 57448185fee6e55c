/**
 * The servers that hold keys: the one server, or every master of a cluster. What must see the
 * whole keyspace (a SCAN, INFO per node) walks these, never one node of a cluster.
 */
import type { Cluster, Redis } from 'ioredis';
import { isCluster, type RedisClient } from './client.js';

export function mastersOf(client: RedisClient): Redis[] {
  return isCluster(client) ? client.nodes('master') : [client];
}

/**
 * Every key matching `pattern`, a batch at a time, on every master (SCAN, never KEYS). A cluster
 * client knows its masters only once connected: a new one would otherwise walk none.
 */
export async function* scanKeys(client: RedisClient, pattern: string, count = 1000): AsyncGenerator<string[]> {
  if (isCluster(client)) await connected(client);
  for (const node of mastersOf(client)) {
    for await (const keys of node.scanStream({ match: pattern, count }) as AsyncIterable<string[]>) {
      if (keys.length > 0) yield keys;
    }
  }
}

/** Resolves once a cluster client is ready (connecting it when it was made lazily). */
async function connected(client: Cluster): Promise<void> {
  if (client.status === 'ready') return;
  if (client.status === 'wait') {
    await client.connect();
    return;
  }
  await new Promise<void>((resolve, reject) => {
    const onEnd = () => reject(new Error('the cluster connection ended before it was ready'));
    client.once('ready', () => {
      client.off('end', onEnd);
      resolve();
    });
    client.once('end', onEnd);
  });
}
