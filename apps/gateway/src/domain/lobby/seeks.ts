/**
 * Seeks, paired automatically. Pairing is race-free across gateways: a seek is posted under
 * its pool's lock, and the open seek it pairs with is locked for update, so no seek is ever
 * taken twice and two compatible seeks posted at once pair with each other. The pairing
 * locks both players first (in id order), checks that neither is in a real-time game when
 * the new one is real-time, and withdraws their other open seeks in the same transaction.
 * The game is created inside that transaction: if the transaction fails the seek stays open
 * (a game created just before such a failure is left unplayed, and aborted by the
 * first-move timer).
 */
import { randomUUID } from 'node:crypto';
import {
  type CreateSeekBody,
  isRealTime,
  MAX_OPEN_SEEKS,
  SEEK_TTL_MS,
  type SeekView,
  type Side,
} from '@shogi/protocol';
import { ApiError } from '../api-error.js';
import { addressKey } from '../client-address.js';
import type { Player } from '../player.js';
import { refuseBot } from './bot-accounts.js';
import { checkTerms } from './checks.js';
import { other, poolKeyOf, rankCandidates, type SeekTerms, sideOf } from './pairing.js';
import type { NewSeek, SeekCounts, SeekStore, SeekTx, StoredSeek } from './ports.js';
import { createGameFor, type LobbyContext, ratedPairAllowed, realTimeGameOf, refuseIfPlaying } from './start-game.js';
import { seekView, termsOfSeek } from './views.js';

export interface SeekDeps extends LobbyContext {
  readonly store: SeekStore;
  /** open seeks at once from one client address (addressKey), all its players together; 0: no limit */
  readonly maxOpenSeeksPerAddress: number;
}

/** A seek about to be posted: checked, with its terms and its row. */
interface Posting {
  readonly at: Date;
  readonly terms: SeekTerms;
  readonly row: NewSeek;
}

interface Outcome {
  readonly mine: StoredSeek;
  /** the seek it was paired with, or null when it was left open */
  readonly theirs: StoredSeek | null;
}

export type SeekService = ReturnType<typeof createSeekService>;

export function createSeekService(deps: SeekDeps) {
  const { store, now } = deps;
  return {
    /** `ip`: the client's address, for the per-address limit (none: counted for no address). */
    async createSeek(player: Player, body: CreateSeekBody, ip?: string): Promise<SeekView> {
      const posting = await prepare(deps, player, body, ip);
      const outcome = await store.transaction((tx) => pairOrPost(deps, tx, player, posting));
      await announcePairing(deps, player, outcome);
      return seekView(outcome.mine, posting.at);
    },

    async listSeeks(): Promise<SeekView[]> {
      const at = now();
      return (await store.listOpenSeeks(at)).map((r) => seekView(r, at));
    },

    async seek(id: string): Promise<SeekView> {
      const row = await store.getSeek(id);
      if (!row) throw new ApiError('SEEK_NOT_FOUND');
      return seekView(row, now());
    },

    /** Cancels an open seek of the player's; cancelling it again answers the same. */
    async cancelSeek(player: Player, id: string): Promise<SeekView> {
      const at = now();
      const found = await store.getSeek(id);
      if (!found) throw new ApiError('SEEK_NOT_FOUND');
      if (found.player_id !== player.id) throw new ApiError('NOT_YOUR_SEEK');
      const row = (await store.cancelSeek(id, at)) ?? found;
      const view = seekView(row, at);
      if (view.status !== 'cancelled')
        throw new ApiError('SEEK_CLOSED', view.gameId === null ? view.status : `paired: game ${view.gameId}`);
      return view;
    },
  };
}

async function checkCount(counts: SeekCounts, playerId: string, at: Date): Promise<void> {
  if ((await counts.countOpenSeeks(playerId, at)) >= MAX_OPEN_SEEKS)
    throw new ApiError('TOO_MANY_SEEKS', `at most ${MAX_OPEN_SEEKS}`);
}

/** Refuses a seek from an address with `perAddress` open seeks already (none when there is no limit or no address). */
async function checkAddress(counts: SeekCounts, perAddress: number, key: string | null, at: Date): Promise<void> {
  if (key === null || perAddress === 0) return;
  if ((await counts.countOpenSeeksFrom(key, at)) >= perAddress)
    throw new ApiError('TOO_MANY_SEEKS_FROM_ADDRESS', `at most ${perAddress} open seeks per address`);
}

/** Checks the seek, answers early what its transaction would refuse, and reads the rating it pairs on. */
async function prepare(deps: SeekDeps, player: Player, body: CreateSeekBody, ip: string | undefined): Promise<Posting> {
  const { store } = deps;
  checkTerms(body.timeControl, body.rated);
  await refuseBot(store, player.id);
  const range = body.ratingRange ?? null;
  if (range !== null && range.min > range.max) throw new ApiError('INVALID_RATING_RANGE');
  const at = deps.now();
  // counted again under the player's quota lock in the transaction; this early answer
  // spares a full player the rating read
  await checkCount(store, player.id, at);
  const address = ip === undefined ? null : addressKey(ip);
  await checkAddress(store, deps.maxOpenSeeksPerAddress, address, at);
  await refuseIfPlaying(store, player.id, body.timeControl);
  // read before the transaction: a missing ratings table must not abort it
  const rating = await store.lobbyRating(player.id, body.timeControl);
  const terms: SeekTerms = {
    id: randomUUID(),
    playerId: player.id,
    rating,
    timeControl: body.timeControl,
    rated: body.rated,
    ruleset: body.ruleset ?? 'default',
    handicap: body.handicap ?? null,
    color: body.color ?? 'random',
    ratingRange: range,
    createdAt: at,
  };
  return { at, terms, row: rowOf(player, terms, address) };
}

function rowOf(player: Player, terms: SeekTerms, address: string | null): NewSeek {
  const at = terms.createdAt;
  return {
    id: terms.id,
    player_id: player.id,
    player_name: player.name,
    rating: terms.rating,
    pool_key: poolKeyOf(terms),
    time_control: terms.timeControl,
    rated: terms.rated,
    ruleset: terms.ruleset,
    handicap: terms.handicap,
    color: terms.color,
    rating_min: terms.ratingRange?.min ?? null,
    rating_max: terms.ratingRange?.max ?? null,
    created_at: at,
    expires_at: new Date(at.getTime() + SEEK_TTL_MS),
    address_key: address,
  };
}

/**
 * The lock order of every seek: the player's quota, the address's, the pool, then players
 * in id order (one savepoint per candidate, so a candidate given up releases its player's
 * lock).
 */
async function pairOrPost(deps: SeekDeps, tx: SeekTx, player: Player, posting: Posting): Promise<Outcome> {
  const { at, terms, row } = posting;
  const perAddress = deps.maxOpenSeeksPerAddress;
  await tx.lockQuota('seeks', player.id);
  await checkCount(tx, player.id, at);
  const address = row.address_key;
  if (address !== null && perAddress > 0) {
    await tx.lockQuota('seeks-by-address', address);
    await checkAddress(tx, perAddress, address, at);
  }
  await tx.lockSeekPool(row.pool_key);
  const candidates = (await tx.openSeeksInPool(row.pool_key, player.id, at)).map(termsOfSeek);
  for (const candidate of rankCandidates(terms, candidates)) {
    const paired = await tx.attempt(() => pairWith(deps, tx, player, posting, candidate));
    if (paired) return paired;
  }
  await tx.lockPlayers([player.id]);
  await refuseBot(tx, player.id);
  await refuseIfPlaying(tx, player.id, terms.timeControl);
  return { mine: await tx.insertSeek(row), theirs: null };
}

/** Inside the candidate's savepoint: undefined when the candidate can no longer pair. */
async function pairWith(
  deps: SeekDeps,
  tx: SeekTx,
  player: Player,
  { at, terms, row }: Posting,
  candidate: SeekTerms,
): Promise<Outcome | undefined> {
  await tx.lockPlayers([player.id, candidate.playerId]);
  // under the player's lock: a bot account's seek, and a real-time seek of a player in a
  // real-time game, are refused (the candidate's seek was withdrawn if it became a bot)
  await refuseBot(tx, player.id);
  await refuseIfPlaying(tx, player.id, terms.timeControl);
  const theirs = await tx.lockOpenSeek(candidate.id, at);
  if (!theirs) return undefined;
  // a marked account plays only marked accounts (fair play): read under both players' locks,
  // after which a mark changes nothing about this pairing
  if ((await tx.isEngineMarked(player.id)) !== (await tx.isEngineMarked(theirs.player_id))) return undefined;
  // a rated seek is not paired with an opponent the player has met in too many rated games today
  if (terms.rated && !(await ratedPairAllowed(tx, deps.ratedGamesPerPair, player.id, theirs.player_id, at)))
    return undefined;
  // a seek posted before its player's real-time game began waits for its end
  if (isRealTime(terms.timeControl) && (await realTimeGameOf(tx, theirs.player_id)) !== null) return undefined;
  const side = sideOf(terms.color, candidate.color, deps.coin);
  const [sente, gote] = side === 'sente' ? [player.id, theirs.player_id] : [theirs.player_id, player.id];
  const game = await createGameFor(deps.games, sente, gote, { ...terms, sfen: null });
  await tx.markSeekPaired(theirs.id, game.id, other(side));
  // their other seeks were alternatives to this one: all withdrawn, whatever the clock
  await tx.withdrawOpenSeeks([player.id, theirs.player_id], at);
  const mine = await tx.insertSeek(row, { gameId: game.id, side });
  return { mine, theirs };
}

async function announcePairing(deps: SeekDeps, player: Player, { mine, theirs }: Outcome): Promise<void> {
  if (theirs === null || mine.game_id === null || mine.side === null) return;
  const gameId = mine.game_id;
  await Promise.all([
    deps.notify(player.id, { type: 'paired', seekId: mine.id, gameId, color: mine.side as Side }),
    deps.notify(theirs.player_id, { type: 'paired', seekId: theirs.id, gameId, color: other(mine.side as Side) }),
  ]);
}
