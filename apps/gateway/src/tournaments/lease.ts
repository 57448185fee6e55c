/**
 * The tournament director's lease in Redis: one gateway at a time directs every tournament
 * (starts, scores, pairs, ends). The holder renews it well before it lapses; a gateway that
 * dies stops renewing, and another takes it over once it lapses. Holding it is an
 * optimisation, not the guarantee: pairings are appended at an expected version, so two
 * directors for a moment still make one wave.
 */
import type { RedisClient } from '@shogi/redis';

// renews the lease only while it is still ours: a lapsed lease another took is not taken back
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export interface Lease {
  /** Takes the lease if free, renews it if ours: whether we hold it now. */
  hold(): Promise<boolean>;
  /** Gives it up if ours (a graceful shutdown hands it over at once). */
  release(): Promise<void>;
}

export function redisLease(redis: RedisClient, key: string, token: string, ttlMs: number): Lease {
  return {
    async hold() {
      if ((await redis.set(key, token, 'PX', ttlMs, 'NX')) === 'OK') return true;
      return Number(await redis.eval(RENEW, 1, key, token, String(ttlMs))) === 1;
    },
    async release() {
      await redis.eval(RELEASE, 1, key, token);
    },
  };
}
