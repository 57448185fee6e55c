/**
 * The servers that hold keys: the one server, or every master of a cluster. What must see the
 * whole keyspace (a SCAN, INFO per node) walks these, never one node of a cluster.
 */
import type { Redis } from 'ioredis';
import { isCluster, type RedisClient } from './client.js';

export function mastersOf(client: RedisClient): Redis[] {
  return isCluster(client) ? client.nodes('master') : [client];
}

/** Every key matching `pattern`, a batch at a time, on every master (SCAN, never KEYS). */
export async function* scanKeys(client: RedisClient, pattern: string, count = 1000): AsyncGenerator<string[]> {
  for (const node of mastersOf(client)) {
    for await (const keys of node.scanStream({ match: pattern, count }) as AsyncIterable<string[]>) {
      if (keys.length > 0) yield keys;
    }
  }
}
