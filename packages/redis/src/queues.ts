/**
 * Where a BullMQ queue's keys go. BullMQ's Lua scripts touch many keys of their queue at once,
 * and a script's keys must share one hash slot on a cluster: each queue gets a hash tag of its
 * own (`{shogi:validate-0}`), so every queue sits whole on one master and different queues
 * spread over the masters. On a single server the prefix is the configured one, unchanged.
 */
export function queuePrefix(cluster: boolean, base: string, queueName: string): string {
  return cluster ? `{${base}:${queueName}}` : base;
}
