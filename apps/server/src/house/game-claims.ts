/**
 * Which process plays a house bot's game. Every process that runs the house bots plays as the
 * same players, so a game must have one of them at a time: the one that claimed it. A claim
 * is a Redis key with a lifetime, renewed while the game is played; a process that stops
 * releases its claims, and one that dies lets them lapse, so another process takes the game
 * up instead of leaving its person to wait for a move that never comes.
 */
import { randomUUID } from 'node:crypto';
import type { RedisClient } from '@shogi/redis';

export interface GameClaims {
  /** true when this process now plays the game: nobody did, or this process already does */
  claim(gameId: string): Promise<boolean>;
  /** keeps this process's claim alive; false when another process holds the game now */
  renew(gameId: string): Promise<boolean>;
  /** lets the game go (its end, or this process stopping) */
  release(gameId: string): Promise<void>;
  /** how often a claim must be renewed to stay this process's */
  readonly renewEveryMs: number;
}

// one key each: on a cluster a claim lives wherever its key hashes
const RENEW = `local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if v == false then return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) and 1 or 0 end
return 0`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/** Claims shared by every process on `redis`, under `prefix`, lapsing `ttlMs` after the last renewal. */
export function redisGameClaims(redis: RedisClient, prefix: string, ttlMs: number): GameClaims {
  const owner = randomUUID();
  const key = (gameId: string) => `${prefix}house-game:${gameId}`;
  return {
    renewEveryMs: Math.max(100, Math.floor(ttlMs / 3)),
    async claim(gameId) {
      if ((await redis.set(key(gameId), owner, 'PX', ttlMs, 'NX')) === 'OK') return true;
      return (await redis.get(key(gameId))) === owner;
    },
    async renew(gameId) {
      return Number(await redis.eval(RENEW, 1, key(gameId), owner, String(ttlMs))) === 1;
    },
    async release(gameId) {
      await redis.eval(RELEASE, 1, key(gameId), owner);
    },
  };
}
