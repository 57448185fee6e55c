/**
 * The CSA front end's shared state, in Redis, so that several gateways behind one address
 * pair players connected to any of them:
 * - `waiting:<game name>`: the players waiting for an opponent, a sorted set of entries scored
 *   by when the entry lapses (its session renews it while it waits; a gateway that died
 *   leaves entries that lapse on their own);
 * - `proposal:<game id>`: a pairing proposed: which sides agreed, then how it ended (the
 *   start of its game, or who rejected it), kept a while for players who ask again;
 * - `claim:<game id>`: who is starting the agreed game, for a lease: the gateway that saw the
 *   second AGREE, or, when that one died before the start, whichever asks again after the
 *   lease (the game is created under the proposal's id, so a start made twice is one game);
 * - `gateway:<id>`: the channel on which each gateway hears what concerns its sessions;
 * - for Floodgate rounds: `floodgate-names` (the game names with players waiting for a
 *   round), `last:<game name>` (each player's last opponent there), and `round:<game
 *   name>:<time>`, which the one gateway that runs that round takes.
 * Every check-and-change is one Lua script on one key: two gateways never take the same waiting
 * player, and on a Redis Cluster each script runs on the master of its key.
 */
import { randomUUID } from 'node:crypto';
import type { TimeControl } from '@shogi/game';
import type { Side } from '@shogi/protocol';
import { publish, type RedisClient } from '@shogi/redis';
import type { Handicap } from '@shogi/rules';
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
  /** the handicap of the game name; null: an even game */
  readonly handicap: Handicap | null;
  /** the start position: the handicap's, or the standard one */
  readonly initialSfen: string;
  /** the game is drawn (`#MAX_MOVES`) once this many moves are played */
  readonly maxMoves: number;
  readonly rated: boolean;
  readonly sente: WaitingEntry;
  readonly gote: WaitingEntry;
  /** A Floodgate round's proposal: the round's time (ms since the epoch) and its number in the day. */
  readonly round?: FloodgateRoundOf;
}

export interface FloodgateRoundOf {
  readonly at: number;
  readonly number: number;
}

/** What the agreed game started with: the time it was created (its clock runs from then) and its position. */
export interface StartedGame {
  readonly createdAt: string;
  readonly initialSfen: string;
}

/** What a gateway tells one of its sessions (possibly from another gateway). */
export type SessionMessage =
  | { readonly type: 'proposal'; readonly proposal: Proposal }
  | ({ readonly type: 'start'; readonly gameId: string } & StartedGame)
  | { readonly type: 'reject'; readonly gameId: string; readonly by: string };

export interface Envelope {
  readonly to: string;
  readonly message: SessionMessage;
}

/** How long a waiting entry lives without being renewed, ms. */
export const WAITING_TTL_MS = 60_000;
/** How long a proposal is kept: past the agree timeout, so a late AGREE finds it gone. */
const PROPOSAL_TTL_S = 600;

// ARGV: now, entry, side ('sente'|'gote'|''), playerId, lapsesAt, queue ('1'|'0'), sideAsked
// ('1': one of the two must have asked a side). Drops lapsed entries, then takes the oldest
// entry of another player whose side does not clash; queues the entry if none (and queue is '1').
const PAIR_OR_WAIT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
for _, m in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local e = cjson.decode(m)
  local side = e.side
  if side == cjson.null then side = '' end
  if e.playerId ~= ARGV[4] and (side == '' or ARGV[3] == '' or side ~= ARGV[3])
    and (ARGV[7] ~= '1' or side ~= '' or ARGV[3] ~= '') then
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

// KEYS: the proposal, its start claim. ARGV: side, lease (ms), token. Records the side's AGREE
// (again, for a player who asks again until its game starts), then answers what is decided:
// {'gone'} (lapsed), {'rejected', by}, {'started', start}, {'start'} (both agreed and the
// caller holds the start claim for the lease: it starts the game), or {'wait'} (the other has
// not agreed, or another caller's claim is live).
const AGREE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return {'gone'} end
local rejected = redis.call('HGET', KEYS[1], 'rejected')
if rejected then return {'rejected', rejected} end
local started = redis.call('HGET', KEYS[1], 'started')
if started then return {'started', started} end
redis.call('HSET', KEYS[1], ARGV[1], '1')
if redis.call('HGET', KEYS[1], 'sente') == '1' and redis.call('HGET', KEYS[1], 'gote') == '1'
  and redis.call('SET', KEYS[2], ARGV[3], 'PX', ARGV[2], 'NX') then return {'start'} end
return {'wait'}`;

// ARGV: by. The proposal, marked rejected by \`by\`; nil when it is gone, rejected already,
// started, or agreed by both (then it is started, or refused by whoever starts it).
const WITHDRAW = `
if redis.call('HEXISTS', KEYS[1], 'rejected') == 1 or redis.call('HEXISTS', KEYS[1], 'started') == 1 then return false end
if redis.call('HGET', KEYS[1], 'sente') == '1' and redis.call('HGET', KEYS[1], 'gote') == '1' then return false end
local p = redis.call('HGET', KEYS[1], 'proposal')
if not p then return false end
redis.call('HSET', KEYS[1], 'rejected', ARGV[1])
return p`;

// KEYS: the proposal, its start claim. ARGV: the start. The game exists: recorded for anyone
// who asks again, and the claim released.
const STARTED = `
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], 'started', ARGV[1]) end
redis.call('DEL', KEYS[2])
return 1`;

// KEYS: the proposal, its start claim. ARGV: token, by. The start was refused (a player is in
// another game): the proposal is rejected by \`by\`, if the caller's claim is still the live one.
const REFUSE = `
if redis.call('GET', KEYS[2]) ~= ARGV[1] or redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'rejected', ARGV[2])
redis.call('DEL', KEYS[2])
return 1`;

/** What a recorded AGREE finds. */
export type AgreeOutcome =
  /** the other player has not agreed, or another gateway is starting the game */
  | { readonly kind: 'wait' }
  /** both agreed: the caller starts the game, holding `token`'s claim for the lease */
  | { readonly kind: 'start'; readonly token: string }
  | { readonly kind: 'started'; readonly start: StartedGame }
  | { readonly kind: 'rejected'; readonly by: string }
  /** no such proposal any more (it lapsed) */
  | { readonly kind: 'gone' };

export interface PairingStore {
  /**
   * Takes a waiting player `entry` can play, or queues `entry` (and answers null). `queue`
   * false: never queued (%%CHALLENGE); `sideAsked`: only a pair where one of the two asked a
   * side (a handicap game, whose giver is chosen, not drawn).
   */
  pairOrWait(
    gameName: string,
    entry: WaitingEntry,
    now: number,
    options?: { readonly queue?: boolean; readonly sideAsked?: boolean },
  ): Promise<WaitingEntry | null>;
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
  /** Records `side`'s AGREE (again); `leaseMs`: how long a start claim it takes is held. */
  agree(gameId: string, side: Side, leaseMs: number): Promise<AgreeOutcome>;
  /** Records the started game of the proposal, and releases the claim. */
  started(gameId: string, start: StartedGame): Promise<void>;
  /** Rejects the proposal whose start was refused, if `token`'s claim is the live one; false when it is not. */
  refuse(gameId: string, token: string, by: string): Promise<boolean>;
  /** The proposal, rejected by `by`; null when it was rejected already, or both agreed (it starts). */
  withdraw(gameId: string, by: string): Promise<Proposal | null>;
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
  // a proposal and its start claim go into one script: one hash slot on a Redis Cluster
  const gameKey = (kind: 'proposal' | 'claim', gameId: string) => key(kind, `{${gameId}}`);
  const member = (entry: WaitingEntry) => JSON.stringify(entry);
  return {
    async pairOrWait(gameName, entry, now, { queue = true, sideAsked = false } = {}) {
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
        sideAsked ? '1' : '0',
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
      const k = gameKey('proposal', proposal.gameId);
      await redis.multi().hset(k, 'proposal', JSON.stringify(proposal)).expire(k, PROPOSAL_TTL_S).exec();
    },
    async agree(gameId, side, leaseMs) {
      const token = randomUUID();
      const [kind, value] = (await redis.eval(
        AGREE,
        2,
        gameKey('proposal', gameId),
        gameKey('claim', gameId),
        side,
        String(leaseMs),
        token,
      )) as [AgreeOutcome['kind'], string | undefined];
      switch (kind) {
        case 'start':
          return { kind, token };
        case 'started':
          return { kind, start: JSON.parse(value as string) as StartedGame };
        case 'rejected':
          return { kind, by: value as string };
        default:
          return { kind };
      }
    },
    async started(gameId, start) {
      await redis.eval(STARTED, 2, gameKey('proposal', gameId), gameKey('claim', gameId), JSON.stringify(start));
    },
    async refuse(gameId, token, by) {
      return (await redis.eval(REFUSE, 2, gameKey('proposal', gameId), gameKey('claim', gameId), token, by)) === 1;
    },
    async withdraw(gameId, by) {
      const p = (await redis.eval(WITHDRAW, 1, gameKey('proposal', gameId), by)) as string | null;
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
