/**
 * A minimal chat per game, in lishogi's two rooms: the players' and the spectators'. A line
 * is kept in a capped Redis list per game and room and published on the game's chat channel,
 * which each gateway's chat hub (a hub.ts over its own subscriber) routes to its streams of
 * that game. Apart from the game's event log on purpose: a chat line is no event of the game,
 * and the worker, projections and replays never see one. Delivery is best effort, like the
 * game channels; the list is what a late reader asks for (lishogi's GET of a game's chat).
 */
import type { Hub } from './hub.js';

export const CHAT_ROOMS = ['player', 'spectator'] as const;
export type ChatRoom = (typeof CHAT_ROOMS)[number];

export const isChatRoom = (s: unknown): s is ChatRoom => (CHAT_ROOMS as readonly unknown[]).includes(s);

export interface ChatLine {
  readonly room: ChatRoom;
  /** the writer's username (a guest's name) */
  readonly username: string;
  /** the writer's player id: a client mutes by it (absent on lines kept before it was) */
  readonly playerId?: string;
  /** checked by chat-text.ts */
  readonly text: string;
  /** ISO 8601 */
  readonly at: string;
}

/** Lines kept per game and room: a game's chat is read for the game at hand, not as an archive. */
export const CHAT_KEEP = 100;
/** How long a game's chat is kept after its last line, seconds. */
export const CHAT_TTL_SECONDS = 7 * 24 * 60 * 60;

// The game's id in a hash tag: a line's list and its channel share a slot, so that keeping and
// announcing it stay one transaction on a Redis Cluster (SPUBLISH there, its channel a key).
export const chatChannel = (gameId: string, prefix: string): string => `${prefix}chat:{${gameId}}`;
const listKey = (gameId: string, room: ChatRoom, prefix: string): string => `${prefix}chat:{${gameId}}:${room}`;

/** What the chat needs of Redis (ioredis' commands connection, of one server or a cluster, fits). */
export interface ChatRedis {
  multi(): {
    rpush(key: string, value: string): unknown;
    ltrim(key: string, start: number, stop: number): unknown;
    expire(key: string, seconds: number): unknown;
    publish(channel: string, message: string): unknown;
    spublish(channel: string, message: string): unknown;
    exec(): Promise<unknown>;
  };
  lrange(key: string, start: number, stop: number): Promise<string[]>;
}

export interface GameChat {
  /** Keeps the line and publishes it to every gateway. */
  write(gameId: string, line: ChatLine): Promise<void>;
  /** The room's latest lines, oldest first. */
  recent(gameId: string, room: ChatRoom): Promise<ChatLine[]>;
  /** Lines written from now on, on any gateway; resolves once subscribed, with the way out. */
  join(gameId: string, listener: (line: ChatLine) => void): Promise<() => void>;
}

/** A line read back from Redis, or null when it is not one (written by another version). */
export function chatLineOf(value: unknown): ChatLine | null {
  const v = value as Partial<ChatLine> | null;
  if (v === null || typeof v !== 'object') return null;
  if (!isChatRoom(v.room) || typeof v.username !== 'string' || typeof v.text !== 'string') return null;
  return {
    room: v.room,
    username: v.username,
    ...(typeof v.playerId === 'string' ? { playerId: v.playerId } : {}),
    text: v.text,
    at: typeof v.at === 'string' ? v.at : '',
  };
}

/**
 * The rooms a reader may see: a player the players' room, and the spectators' once the game
 * has ended (lishogi's getWatcherChat: `game.finishedOrAborted || !userIds.contains(me)`);
 * anyone else the spectators' room.
 */
export function chatRoomsFor(player: boolean, ended: boolean): readonly ChatRoom[] {
  if (!player) return ['spectator'];
  return ended ? ['player', 'spectator'] : ['player'];
}

export function createGameChat(deps: {
  readonly redis: ChatRedis;
  /** a Redis Cluster: the line is announced on a sharded channel */
  readonly cluster: boolean;
  readonly hub: Hub;
  readonly prefix: string;
}): GameChat {
  const { redis, cluster, hub, prefix } = deps;
  return {
    async write(gameId, line) {
      const key = listKey(gameId, line.room, prefix);
      const json = JSON.stringify(line);
      // one transaction: a line is kept and announced together, or neither
      const tx = redis.multi();
      tx.rpush(key, json);
      tx.ltrim(key, -CHAT_KEEP, -1);
      tx.expire(key, CHAT_TTL_SECONDS);
      if (cluster) tx.spublish(chatChannel(gameId, prefix), `[${json}]`);
      else tx.publish(chatChannel(gameId, prefix), `[${json}]`);
      await tx.exec();
    },
    async recent(gameId, room) {
      const raw = await redis.lrange(listKey(gameId, room, prefix), 0, -1);
      const lines: ChatLine[] = [];
      for (const item of raw) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(item);
        } catch {
          continue;
        }
        const line = chatLineOf(parsed);
        if (line !== null) lines.push(line);
      }
      return lines;
    },
    join(gameId, listener) {
      return hub.join(gameId, (published) => {
        for (const item of published) {
          const line = chatLineOf(item);
          if (line !== null) listener(line);
        }
      });
    },
  };
}
