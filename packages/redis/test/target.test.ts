import { describe, expect, it } from 'vitest';
import {
  clusterNodesOf,
  clusterNodesText,
  DEFAULT_REDIS_URL,
  describeTarget,
  onCluster,
  queuePrefix,
  redisTargetFromEnv,
} from '../src/index.js';

describe('REDIS_CLUSTER_NODES', () => {
  it('reads host:port pairs, IPv6 hosts in brackets; empty is no cluster', () => {
    expect(clusterNodesOf('127.0.0.1:7000, redis-node-2:6379,[::1]:7002')).toEqual([
      { host: '127.0.0.1', port: 7000 },
      { host: 'redis-node-2', port: 6379 },
      { host: '::1', port: 7002 },
    ]);
    expect(clusterNodesOf(undefined)).toEqual([]);
    expect(clusterNodesOf('  ')).toEqual([]);
  });

  it('writes the nodes back as it reads them, IPv6 hosts in brackets', () => {
    const raw = '127.0.0.1:7000,redis-node-2:6379,[::1]:7002';
    expect(clusterNodesText(clusterNodesOf(raw))).toBe(raw);
    expect(clusterNodesText([])).toBe('');
  });

  it.each(['127.0.0.1', '127.0.0.1:0', 'host:70000', 'a:1,,b:2', 'redis://host:7000', 'host:port'])(
    'refuses %j, naming the variable',
    (raw) => {
      expect(() => clusterNodesOf(raw)).toThrow(/REDIS_CLUSTER_NODES must be host:port/);
    },
  );

  it('makes the target of an environment', () => {
    expect(redisTargetFromEnv({})).toEqual({ redisUrl: DEFAULT_REDIS_URL, redisClusterNodes: [] });
    const target = redisTargetFromEnv({ REDIS_URL: 'redis://u:secret@db:6380', REDIS_CLUSTER_NODES: 'n1:7000' });
    expect(onCluster(target)).toBe(true);
    expect(onCluster(redisTargetFromEnv({ REDIS_URL: 'redis://db:6380' }))).toBe(false);
    expect(describeTarget(target)).toBe('the Redis Cluster at n1:7000');
    expect(describeTarget({ redisUrl: 'redis://u:secret@db:6380' })).toBe('redis://u:***@db:6380');
  });
});

describe('queuePrefix', () => {
  it('is the prefix on one server, a hash tag of its own per queue on a cluster', () => {
    expect(queuePrefix(false, 'shogi', 'validate')).toBe('shogi');
    expect(queuePrefix(true, 'shogi', 'validate-0')).toBe('{shogi:validate-0}');
    expect(queuePrefix(true, 'shogi', 'validate-0')).not.toBe(queuePrefix(true, 'shogi', 'validate-1'));
  });
});
