/**
 * The CSA front end's shared state, in Redis, so that several gateways behind one address
 * pair players connected to any of them:
 * - `waiting:<game name>`: the players waiting for an opponent, a sorted set of entries scored
 *   by when the entry lapses (its session renews it while it waits; a gateway that died
 *   leaves entries that lapse on their own);
 * - `proposal:<game id>`: a pairing proposed and not yet started or rejected: which sides
 *   agreed, and whether the game has been started (once, by whoever saw the second AGREE);
 * - `gateway:<id>`: the channel on which each gateway hears what concerns its sessions;
 * - for Floodgate rounds: `floodgate-names` (the game names with players waiting for a
 *   round), `last:<game name>` (each player's last opponent there), and `round:<game
 *   name>:<time>`, which the one gateway that runs that round takes.
 * Every check-and-change is one Lua script on one key: two gateways never take the same waiting
 * player, and on a Redis Cluster each script runs on the master of its key.
 */
import type { TimeControl } from '@shogi/game';
import type { Side } from '@shogi/protocol';
import { publish, type RedisClient } from '@shogi/redis';
import type { Presence } from './x1-lines.js';

/** A player waiting for a game, as its session put itself in the queue. */
export interface WaitingEntry {
  readonly sessionId: string;
  readonly gatewayId: string;
  readonly playerId: string;
  /** the CSA login name */
  readonly name: string;
  readonly side: Side | null;
  /** logged in with a trip: an account, whose games can be rated */
  readonly trip: boolean;
  /** the player's rating in the game's category, for Floodgate rounds */
  readonly rating: number;
}

/** Two waiting players put together: the game they are asked to agree to. */
export interface Proposal {
  /** the id the game will have in the HTTP API once both agree */
  readonly gameId: string;
  readonly gameName: string;
  readonly timeControl: TimeControl;
  readonly initialSfen: string;
  /** the game is drawn (`#MAX_MOVES`) once this many moves are played */
  readonly maxMoves: number;
  readonly rated: boolean;
  readonly sente: WaitingEntry;
  readonly gote: WaitingEntry;
}

/** What a gateway tells one of its sessions (possibly from another gateway). */
export type SessionMessage =
  | { readonly type: 'proposal'; readonly proposal: Proposal }
  | { readonly type: 'start'; readonly gameId: string; readonly createdAt: string; readonly initialSfen: string }
  | { readonly type: 'reject'; readonly gameId: string; readonly by: string };

export interface Envelope {
  readonly to: string;
  readonly message: SessionMessage;
}

/** How long a waiting entry lives without being renewed, ms. */
export const WAITING_TTL_MS = 60_000;
/** How long a proposal is kept: past the agree timeout, so a late AGREE finds it gone. */
const PROPOSAL_TTL_S = 600;

// ARGV: now, entry, side ('sente'|'gote'|''), playerId, lapsesAt, queue ('1'|'0'). Drops lapsed
// entries, then takes the oldest entry of another player whose side does not clash; queues the
// entry if none (and queue is '1').
const PAIR_OR_WAIT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
for _, m in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local e = cjson.decode(m)
  local side = e.side
  if side == cjson.null then side = '' end
  if e.playerId ~= ARGV[4] and (side == '' or ARGV[3] == '' or side ~= ARGV[3]) then
    redis.call('ZREM', KEYS[1], m)
    return m
  end
end
if ARGV[6] == '1' then redis.call('ZADD', KEYS[1], ARGV[5], ARGV[2]) end
return false`;

// ARGV: the entries. Removes them all when all are there, else none.
const TAKE = `
for _, m in ipairs(ARGV) do
  if redis.call('ZSCORE', KEYS[1], m) == false then return 0 end
end
redis.call('ZREM', KEYS[1], unpack(ARGV))
return 1`;

// ARGV: side. 'gone' (rejected or lapsed), 'start' (both agreed, and this caller starts the
// game), or 'wait'.
const AGREE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 'gone' end
redis.call('HSET', KEYS[1], ARGV[1], '1')
if redis.call('HGET', KEYS[1], 'sente') == '1' and redis.call('HGET', KEYS[1], 'gote') == '1'
  and redis.call('HSETNX', KEYS[1], 'started', '1') == 1 then return 'start' end
return 'wait'`;

// The proposal, removed, unless its game has been started; nil when it is gone or started.
const WITHDRAW = `
if redis.call('HEXISTS', KEYS[1], 'started') == 1 then return false end
local p = redis.call('HGET', KEYS[1], 'proposal')
redis.call('DEL', KEYS[1])
return p`;

export interface PairingStore {
  /** Takes a waiting player `entry` can play, or queues `entry` (and answers null); `queue` false: never queued (%%CHALLENGE). */
  pairOrWait(gameName: string, entry: WaitingEntry, now: number, queue?: boolean): Promise<WaitingEntry | null>;
  /** Queues `entry` until `now` + WAITING_TTL_MS. */
  enqueue(gameName: string, entry: WaitingEntry, now: number): Promise<void>;
  /** Keeps `entry` queued until `now` + WAITING_TTL_MS, if it still is (a pairing may have taken it). */
  renew(gameName: string, entry: WaitingEntry, now: number): Promise<void>;
  /** Takes `entry` out of the queue; false when it was no longer there (a round took it). */
  leave(gameName: string, entry: WaitingEntry): Promise<boolean>;
  /** The live entries of a queue. */
  waiting(gameName: string, now: number): Promise<WaitingEntry[]>;
  /** Takes the given entries out of the queue, all or none (a round's pairing); false: one was gone. */
  take(gameName: string, entries: readonly WaitingEntry[]): Promise<boolean>;
  propose(proposal: Proposal): Promise<void>;
  agree(gameId: string, side: Side): Promise<'start' | 'wait' | 'gone'>;
  /** The proposal, withdrawn; null when it was withdrawn already or its game has started. */
  withdraw(gameId: string): Promise<Proposal | null>;
  /** Notes a game name whose players wait for rounds. */
  addRoundName(gameName: string): Promise<void>;
  /** The game names whose players wait for rounds; a name with nobody waiting is forgotten. */
  roundNames(now: number): Promise<string[]>;
  /** Whether this caller runs the round of `gameName` at `at` (the first to ask, of every gateway). */
  claimRound(gameName: string, at: number, ttlMs: number): Promise<boolean>;
  /** Each of the players' last opponent under the game name, by player id. */
  lastOpponents(gameName: string, playerIds: readonly string[]): Promise<Map<string, string>>;
  /** Records two players as each other's last opponent under the game name. */
  met(gameName: string, a: string, b: string): Promise<void>;
  /** Publishes to a gateway's channel, for one of its sessions. */
  send(gatewayId: string, envelope: Envelope): Promise<void>;
  channelOf(gatewayId: string): string;
  /** Shows a session in %%WHO (renewed every PRESENCE_RENEW_MS while connected), or takes it out. */
  present(sessionId: string, presence: Presence | null, now: number): Promise<void>;
  /** The connected players of every gateway. */
  who(now: number): Promise<Presence[]>;
  /** A %%CHAT line to every gateway's x1 players. */
  chat(from: string, text: string): Promise<void>;
  readonly chatChannel: string;
}

/** How often a session's %%WHO entry is renewed; one not renewed for three times this is gone. */
export const PRESENCE_RENEW_MS = 20_000;

export function createPairingStore(redis: RedisClient, prefix: string): PairingStore {
  const key = (...parts: string[]) => `${prefix}csa:${parts.join(':')}`;
  const member = (entry: WaitingEntry) => JSON.stringify(entry);
  return {
    async pairOrWait(gameName, entry, now, queue = true) {
      const taken = (await redis.eval(
        PAIR_OR_WAIT,
        1,
        key('waiting', gameName),
        String(now),
        member(entry),
        entry.side ?? '',
        entry.playerId,
        String(now + WAITING_TTL_MS),
        queue ? '1' : '0',
      )) as string | null;
      return taken === null ? null : (JSON.parse(taken) as WaitingEntry);
    },
    async enqueue(gameName, entry, now) {
      await redis.zadd(key('waiting', gameName), now + WAITING_TTL_MS, member(entry));
    },
    async renew(gameName, entry, now) {
      await redis.zadd(key('waiting', gameName), 'XX', now + WAITING_TTL_MS, member(entry));
    },
    async leave(gameName, entry) {
      return (await redis.zrem(key('waiting', gameName), member(entry))) > 0;
    },
    async waiting(gameName, now) {
      const members = await redis.zrangebyscore(key('waiting', gameName), now, '+inf');
      return members.map((m) => JSON.parse(m) as WaitingEntry);
    },
    async take(gameName, entries) {
      if (entries.length === 0) return true;
      return (await redis.eval(TAKE, 1, key('waiting', gameName), ...entries.map(member))) === 1;
    },
    async propose(proposal) {
      const k = key('proposal', proposal.gameId);
      await redis.multi().hset(k, 'proposal', JSON.stringify(proposal)).expire(k, PROPOSAL_TTL_S).exec();
    },
    async agree(gameId, side) {
      return (await redis.eval(AGREE, 1, key('proposal', gameId), side)) as 'start' | 'wait' | 'gone';
    },
    async withdraw(gameId) {
      const p = (await redis.eval(WITHDRAW, 1, key('proposal', gameId))) as string | null;
      return p === null ? null : (JSON.parse(p) as Proposal);
    },
    async addRoundName(gameName) {
      await redis.sadd(key('floodgate-names'), gameName);
    },
    async roundNames(now) {
      const names = await redis.smembers(key('floodgate-names'));
      const live: string[] = [];
      for (const name of names) {
        const k = key('waiting', name);
        await redis.zremrangebyscore(k, '-inf', now);
        if ((await redis.zcard(k)) > 0) live.push(name);
        else await redis.srem(key('floodgate-names'), name);
      }
      return live;
    },
    async claimRound(gameName, at, ttlMs) {
      return (await redis.set(key('round', gameName, String(at)), '1', 'PX', ttlMs, 'NX')) === 'OK';
    },
    async lastOpponents(gameName, playerIds) {
      const out = new Map<string, string>();
      if (playerIds.length === 0) return out;
      const values = await redis.hmget(key('last', gameName), ...playerIds);
      playerIds.forEach((id, i) => {
        const v = values[i];
        if (v !== null && v !== undefined) out.set(id, v);
      });
      return out;
    },
    async met(gameName, a, b) {
      await redis.hset(key('last', gameName), a, b, b, a);
    },
    async send(gatewayId, envelope) {
      await publish(redis, key('gateway', gatewayId), JSON.stringify(envelope));
    },
    channelOf: (gatewayId) => key('gateway', gatewayId),
    async present(sessionId, presence, now) {
      if (presence === null) await redis.hdel(key('who'), sessionId);
      else await redis.hset(key('who'), sessionId, JSON.stringify({ ...presence, at: now }));
    },
    async who(now) {
      const all = await redis.hgetall(key('who'));
      const live: Presence[] = [];
      const stale: string[] = [];
      for (const [id, json] of Object.entries(all)) {
        const p = JSON.parse(json) as Presence & { at: number };
        if (p.at < now - 3 * PRESENCE_RENEW_MS) stale.push(id);
        else live.push({ name: p.name, mode: p.mode, status: p.status });
      }
      if (stale.length > 0) await redis.hdel(key('who'), ...stale);
      return live.sort((a, b) => a.name.localeCompare(b.name));
    },
    async chat(from, text) {
      await publish(redis, key('chat'), JSON.stringify({ from, text }));
    },
    chatChannel: key('chat'),
  };
}
