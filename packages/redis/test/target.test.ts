import { describe, expect, it } from 'vitest';
import {
  clusterNodesOf,
  clusterNodesText,
  DEFAULT_REDIS_URL,
  describeTarget,
  HASH_SLOTS,
  onCluster,
  queuePrefix,
  redisTargetFromEnv,
  slotShareTag,
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

/** Redis Cluster's slot of a key, written out here from the spec (CRC16-XMODEM of the hash tag, mod 16384). */
function slotOf(key: string): number {
  const open = key.indexOf('{');
  const close = open < 0 ? -1 : key.indexOf('}', open + 1);
  const hashed = close > open + 1 ? key.slice(open + 1, close) : key;
  let crc = 0;
  for (const byte of Buffer.from(hashed)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc % HASH_SLOTS;
}

describe('slotShareTag', () => {
  it("agrees with the spec's slots", () => {
    expect(slotOf('123456789')).toBe(0x31c3); // the spec's CRC16 check value
    expect(slotOf('{user1000}.following')).toBe(slotOf('user1000'));
  });

  it.each([2, 3, 4, 6])('puts queue i of %i in the i-th equal part of the slot space, for any prefix', (of) => {
    for (const prefix of ['shogi', 'bull', 'bench1f3a9c2e', 'x']) {
      const slots = Array.from({ length: of }, (_, index) =>
        slotOf(queuePrefix(true, prefix, `validate-${index}`, { index, of })),
      );
      slots.forEach((slot, index) => {
        expect(slot).toBeGreaterThanOrEqual(Math.floor((index * HASH_SLOTS) / of));
        expect(slot).toBeLessThan(Math.floor(((index + 1) * HASH_SLOTS) / of));
      });
    }
  });

  it('keeps a tag that already falls in its part, and is the same in every call', () => {
    // `shogi:validate-1` hashes to slot 10443, inside the middle third
    expect(slotShareTag('shogi:validate-1', { index: 1, of: 3 })).toBe('shogi:validate-1');
    expect(queuePrefix(true, 'shogi', 'validate-1', { index: 1, of: 3 })).toBe('{shogi:validate-1}');
    const moved = slotShareTag('shogi:validate-0', { index: 0, of: 3 });
    expect(moved).toMatch(/^shogi:validate-0#\d+$/);
    expect(slotShareTag('shogi:validate-0', { index: 0, of: 3 })).toBe(moved);
  });

  it('leaves a lone queue, or one server, as before', () => {
    expect(queuePrefix(true, 'shogi', 'validate', { index: 0, of: 1 })).toBe('{shogi:validate}');
    expect(queuePrefix(false, 'shogi', 'validate-0', { index: 0, of: 3 })).toBe('shogi');
  });

  it.each([
    [3, 3],
    [-1, 3],
    [0, 0],
    [0.5, 2],
  ])('refuses index %d of %d', (index, of) => {
    expect(() => slotShareTag('t', { index, of })).toThrow(/slot share/);
  });
});
