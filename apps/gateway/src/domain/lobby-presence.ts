/**
 * Who is looking at the lobby: one entry per lobby socket that follows the seeks (a lobby
 * page's, `follow=seeks`), in a Redis sorted set shared
 * by every gateway (member `<playerId>/<socket>`, score: when it lapses). Each gateway renews
 * its own sockets' entries well before they lapse and removes them on close, so a gateway that
 * dies takes its entries with it within the time to live. The house seek answerer asks it so
 * that it never takes a seek while a person who could take it is looking.
 */
import { randomUUID } from 'node:crypto';

/** The little of a Redis client the presence needs (ioredis, single or cluster). */
export interface PresenceRedis {
  zadd(key: string, ...scoreMembers: (string | number)[]): Promise<unknown>;
  zrem(key: string, ...members: string[]): Promise<unknown>;
  zremrangebyscore(key: string, min: string | number, max: string | number): Promise<unknown>;
  zrangebyscore(key: string, min: string | number, max: string | number): Promise<string[]>;
}

export interface LobbyPresence {
  /** A lobby socket of this player opened; the returned function is its close. */
  enter(playerId: string): () => void;
  /** How many players other than `except` follow the seeks on a lobby socket, on any gateway. */
  lookers(except: readonly string[]): Promise<number>;
  /** Stops renewing and removes this gateway's entries. */
  close(): Promise<void>;
}

/** A lapsed entry (its gateway died) is ignored after this long without renewal. */
export const PRESENCE_TTL_MS = 30_000;

const memberOf = (playerId: string, socket: string) => `${playerId}/${socket}`;

/** The distinct players of these members, those of `except` left out. */
export function countLookers(members: readonly string[], except: readonly string[]): number {
  const skip = new Set(except);
  const players = new Set<string>();
  for (const m of members) {
    const slash = m.lastIndexOf('/');
    const player = slash < 0 ? m : m.slice(0, slash);
    if (!skip.has(player)) players.add(player);
  }
  return players.size;
}

export function createLobbyPresence(
  redis: PresenceRedis,
  key: string,
  options: {
    readonly ttlMs?: number;
    readonly now?: () => number;
    /** players never counted (the bots this process runs): they are not people looking */
    readonly ignore?: (playerId: string) => boolean;
    readonly onError?: (err: unknown) => void;
  } = {},
): LobbyPresence {
  const ttl = options.ttlMs ?? PRESENCE_TTL_MS;
  const now = options.now ?? Date.now;
  const onError = options.onError ?? (() => undefined);
  const mine = new Set<string>();
  const renew = () => {
    if (mine.size === 0) return;
    const until = now() + ttl;
    redis.zadd(key, ...[...mine].flatMap((m) => [until, m])).catch(onError);
  };
  // renewed at a third of the time to live: two renewals may be lost before an entry lapses
  const timer = setInterval(renew, ttl / 3);
  timer.unref();
  return {
    enter(playerId) {
      if (options.ignore?.(playerId)) return () => undefined;
      const member = memberOf(playerId, randomUUID());
      mine.add(member);
      redis.zadd(key, now() + ttl, member).catch(onError);
      return () => {
        if (!mine.delete(member)) return;
        redis.zrem(key, member).catch(onError);
      };
    },
    async lookers(except) {
      const at = now();
      await redis.zremrangebyscore(key, '-inf', at);
      return countLookers(await redis.zrangebyscore(key, at, '+inf'), except);
    },
    async close() {
      clearInterval(timer);
      const members = [...mine];
      mine.clear();
      if (members.length > 0) await redis.zrem(key, ...members).catch(onError);
    },
  };
}
