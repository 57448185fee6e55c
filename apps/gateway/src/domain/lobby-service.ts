/**
 * The lobby over PostgreSQL: seeks paired automatically, challenges, rematch offers.
 * Pairing is race-free across gateways: a seek is posted under its pool's advisory lock
 * (transaction-scoped), and the open seek it pairs with is locked `for update`, so no
 * seek is ever taken twice and two compatible seeks posted at once pair with each other.
 * Across pools and challenges, whatever starts a game locks both players first (in id
 * order, @shogi/store's lockPlayers), checks that neither is in a real-time game when the
 * new one is real-time, and withdraws their open seeks in the same transaction: a player is
 * never paired twice at once, and never into a second real-time game.
 * The game is created inside that transaction: if the transaction fails the seek stays
 * open (a game created just before such a failure is left unplayed, and aborted by the
 * first-move timer). Players learn of pairings, challenges and answers through `notify`
 * (the per-player Redis channel behind the lobby WebSocket) after the commit.
 */
import { randomUUID } from 'node:crypto';
import { validateTimeControl } from '@shogi/game';
import {
  CHALLENGE_TTL_MS,
  type ChallengeList,
  type ChallengeView,
  type ColorPreference,
  type CreateChallengeBody,
  type CreateGameBody,
  type CreateSeekBody,
  type GameView,
  isRealTime,
  type LobbyMessage,
  MAX_OPEN_SEEKS,
  MAX_PENDING_CHALLENGES,
  REAL_TIME_KINDS,
  SEEK_TTL_MS,
  type SeekView,
  type Side,
  type TimeControl,
} from '@shogi/protocol';
import { START_SFEN } from '@shogi/rules';
import {
  attempt,
  type ChallengeRow,
  cancelSeek,
  closeChallenge,
  countOpenSeeks,
  countOpenSeeksFrom,
  countPendingChallenges,
  type Db,
  findAccountByUsername,
  gameSetupOf,
  getChallenge,
  getSeek,
  insertChallenge,
  insertSeek,
  type LobbyDb,
  listChallenges,
  listOpenSeeks,
  lobbyDb,
  lobbyRating,
  lockChallenge,
  lockOpenSeek,
  lockPlayers,
  lockQuota,
  lockRematches,
  lockSeekPool,
  markSeekPaired,
  ongoingGameOf,
  openSeeksInPool,
  playersNamed,
  rematchesOf,
  type SeekRow,
  withdrawOpenSeeks,
} from '@shogi/store';
import { ApiError } from './api-error.js';
import { addressKey } from './client-address.js';
import { other, rankCandidates, rematchSide, type SeekTerms, sideOf, timeControlKey } from './pairing.js';
import type { Player } from './service.js';

export interface LobbyDeps {
  readonly db: Db;
  readonly games: {
    createGame(body: CreateGameBody): Promise<GameView>;
    view(gameId: string): Promise<GameView>;
  };
  readonly players: { byId(id: string): Promise<Player | null> };
  /** open seeks at once from one client address (addressKey), all its players together; 0 or absent: no limit */
  readonly maxOpenSeeksPerAddress?: number;
  /** Best effort: a lost notification is found again by polling the seek or challenge. */
  readonly notify: (playerId: string, message: LobbyMessage) => Promise<void>;
  readonly now?: () => Date;
  /** true: sente, for players who both left the colour open */
  readonly coin?: () => boolean;
}

export type LobbyService = ReturnType<typeof createLobbyService>;

const ID = /^[A-Za-z0-9_-]{1,64}$/;

export function createLobbyService(deps: LobbyDeps) {
  const db: LobbyDb = lobbyDb(deps.db);
  const now = deps.now ?? (() => new Date());
  const perAddress = deps.maxOpenSeeksPerAddress ?? 0;
  /** Refuses a seek from an address with `perAddress` open seeks already (none when there is no limit or no address). */
  const checkAddress = async (executor: LobbyDb, key: string | null, at: Date) => {
    if (key === null || perAddress === 0) return;
    if ((await countOpenSeeksFrom(executor, key, at)) >= perAddress)
      throw new ApiError('TOO_MANY_SEEKS_FROM_ADDRESS', `at most ${perAddress} open seeks per address`);
  };
  const coin = deps.coin ?? (() => Math.random() < 0.5);
  const notify = (playerId: string, message: LobbyMessage) => deps.notify(playerId, message).catch(() => undefined);

  const createGame = (sente: string, gote: string, terms: GameTerms) =>
    deps.games.createGame({
      sente,
      gote,
      ruleset: terms.ruleset as 'default' | 'jsa',
      timeControl: terms.timeControl,
      rated: terms.rated,
      ...(terms.handicap === null ? {} : { handicap: terms.handicap as NonNullable<CreateGameBody['handicap']> }),
      ...(terms.sfen === null ? {} : { sfen: terms.sfen }),
    });

  /** The player's ongoing real-time game, or null. */
  const realTimeGameOf = (executor: LobbyDb, playerId: string) => ongoingGameOf(executor, playerId, REAL_TIME_KINDS);

  /** Refuses a player in a real-time game something that would start another one; no lock, so only an early answer. */
  async function refuseIfPlaying(executor: LobbyDb, playerId: string, timeControl: TimeControl): Promise<void> {
    if (!isRealTime(timeControl)) return;
    const playing = await realTimeGameOf(executor, playerId);
    if (playing !== null) throw new ApiError('ALREADY_PLAYING', `game ${playing}`);
  }

  /**
   * Accepts a locked pending challenge inside `trx` (by its opponent, the only one who
   * accepts): creates the game, records it. A real-time game starts only when neither player
   * is in one, checked under both players' locks; their open real-time seeks, which could no
   * longer pair, are withdrawn with it.
   */
  async function acceptLocked(
    trx: LobbyDb,
    row: ChallengeRow,
    at: Date,
  ): Promise<{ row: ChallengeRow; challengerSide: Side }> {
    const terms = termsOfChallenge(row);
    const realTime = isRealTime(terms.timeControl);
    if (realTime) {
      await lockPlayers(trx, [row.challenger_id, row.opponent_id]);
      const mine = await realTimeGameOf(trx, row.opponent_id);
      if (mine !== null) throw new ApiError('ALREADY_PLAYING', `game ${mine}`);
      const theirs = await realTimeGameOf(trx, row.challenger_id);
      if (theirs !== null) throw new ApiError('OPPONENT_PLAYING', `${row.challenger_name} plays game ${theirs}`);
    }
    const challengerSide = sideOf(row.color as ColorPreference, 'random', coin);
    const [sente, gote] =
      challengerSide === 'sente' ? [row.challenger_id, row.opponent_id] : [row.opponent_id, row.challenger_id];
    const game = await createGame(sente, gote, terms);
    if (realTime) await withdrawOpenSeeks(trx, [row.challenger_id, row.opponent_id], at, REAL_TIME_KINDS);
    return { row: await closeChallenge(trx, row.id, 'accepted', game.id), challengerSide };
  }

  const announceAccepted = async (row: ChallengeRow, challengerSide: Side) => {
    const gameId = row.game_id as string;
    await Promise.all([
      notify(row.challenger_id, { type: 'accepted', challengeId: row.id, gameId, color: challengerSide }),
      notify(row.opponent_id, { type: 'accepted', challengeId: row.id, gameId, color: other(challengerSide) }),
    ]);
  };

  async function resolveOpponent(opponent: string): Promise<Player> {
    const byId = ID.test(opponent) ? await deps.players.byId(opponent) : null;
    if (byId) return byId;
    // an account's username is unique (case-insensitively); guests' names need not be
    const account = await findAccountByUsername(deps.db, opponent);
    if (account) return { id: account.playerId, name: account.name };
    const named = await playersNamed(deps.db, opponent);
    if (named.length > 1) throw new ApiError('AMBIGUOUS_PLAYER', opponent);
    const [found] = named;
    if (!found) throw new ApiError('UNKNOWN_PLAYER', opponent);
    return found;
  }

  return {
    /** `ip`: the client's address, for the per-address limit (none: counted for no address). */
    async createSeek(player: Player, body: CreateSeekBody, ip?: string): Promise<SeekView> {
      checkTerms(body.timeControl, body.rated);
      const range = body.ratingRange ?? null;
      if (range !== null && range.min > range.max) throw new ApiError('INVALID_RATING_RANGE');
      const at = now();
      // counted again under the player's quota lock in the transaction below; this early
      // answer spares a full player the rating read
      if ((await countOpenSeeks(db, player.id, at)) >= MAX_OPEN_SEEKS)
        throw new ApiError('TOO_MANY_SEEKS', `at most ${MAX_OPEN_SEEKS}`);
      const address = ip === undefined ? null : addressKey(ip);
      await checkAddress(db, address, at);
      await refuseIfPlaying(db, player.id, body.timeControl);
      // read before the transaction: a missing ratings table must not abort it
      const rating = await lobbyRating(deps.db, player.id, body.timeControl);
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
      const poolKey = poolKeyOf(terms);
      const row = {
        id: terms.id,
        player_id: player.id,
        player_name: player.name,
        rating,
        pool_key: poolKey,
        time_control: terms.timeControl,
        rated: terms.rated,
        ruleset: terms.ruleset,
        handicap: terms.handicap,
        color: terms.color,
        rating_min: range?.min ?? null,
        rating_max: range?.max ?? null,
        created_at: at,
        expires_at: new Date(at.getTime() + SEEK_TTL_MS),
        address_key: address,
      };
      const realTime = isRealTime(terms.timeControl);
      // the lock order of every seek: the player's quota, the address's, the pool, then
      // players in id order (one savepoint per candidate, so a candidate given up releases
      // its player's lock)
      const result = await db.transaction().execute(async (trx) => {
        await lockQuota(trx, 'seeks', player.id);
        if ((await countOpenSeeks(trx, player.id, at)) >= MAX_OPEN_SEEKS)
          throw new ApiError('TOO_MANY_SEEKS', `at most ${MAX_OPEN_SEEKS}`);
        if (address !== null && perAddress > 0) {
          await lockQuota(trx, 'seeks-by-address', address);
          await checkAddress(trx, address, at);
        }
        await lockSeekPool(trx, poolKey);
        /** Under the player's lock: a real-time seek of a player in a real-time game is refused. */
        const checkMe = async () => {
          const playing = realTime ? await realTimeGameOf(trx, player.id) : null;
          if (playing !== null) throw new ApiError('ALREADY_PLAYING', `game ${playing}`);
        };
        const candidates = (await openSeeksInPool(trx, poolKey, player.id, at)).map(termsOfSeek);
        for (const candidate of rankCandidates(terms, candidates)) {
          const paired = await attempt(trx, async () => {
            await lockPlayers(trx, [player.id, candidate.playerId]);
            await checkMe();
            const theirs = await lockOpenSeek(trx, candidate.id, at);
            if (!theirs) return undefined;
            // a seek posted before its player's real-time game began waits for its end
            if (realTime && (await realTimeGameOf(trx, theirs.player_id)) !== null) return undefined;
            const side = sideOf(terms.color, candidate.color, coin);
            const [sente, gote] = side === 'sente' ? [player.id, theirs.player_id] : [theirs.player_id, player.id];
            const game = await createGame(sente, gote, { ...terms, sfen: null });
            await markSeekPaired(trx, theirs.id, game.id, other(side));
            // their other seeks were alternatives to this one: all withdrawn, whatever the clock
            await withdrawOpenSeeks(trx, [player.id, theirs.player_id], at);
            const mine = await insertSeek(trx, row, { gameId: game.id, side });
            return { mine, theirs };
          });
          if (paired) return paired;
        }
        await lockPlayers(trx, [player.id]);
        await checkMe();
        return { mine: await insertSeek(trx, row), theirs: null };
      });
      const { mine, theirs } = result;
      if (theirs !== null && mine.game_id !== null && mine.side !== null) {
        const gameId = mine.game_id;
        await Promise.all([
          notify(player.id, { type: 'paired', seekId: mine.id, gameId, color: mine.side as Side }),
          notify(theirs.player_id, { type: 'paired', seekId: theirs.id, gameId, color: other(mine.side as Side) }),
        ]);
      }
      return seekView(mine, at);
    },

    async listSeeks(): Promise<SeekView[]> {
      const at = now();
      return (await listOpenSeeks(db, at)).map((r) => seekView(r, at));
    },

    async seek(id: string): Promise<SeekView> {
      const row = await getSeek(db, id);
      if (!row) throw new ApiError('SEEK_NOT_FOUND');
      return seekView(row, now());
    },

    /** Cancels an open seek of the player's; cancelling it again answers the same. */
    async cancelSeek(player: Player, id: string): Promise<SeekView> {
      const at = now();
      const found = await getSeek(db, id);
      if (!found) throw new ApiError('SEEK_NOT_FOUND');
      if (found.player_id !== player.id) throw new ApiError('NOT_YOUR_SEEK');
      const row = (await cancelSeek(db, id, at)) ?? found;
      const view = seekView(row, at);
      if (view.status !== 'cancelled')
        throw new ApiError('SEEK_CLOSED', view.gameId === null ? view.status : `paired: game ${view.gameId}`);
      return view;
    },

    async createChallenge(player: Player, body: CreateChallengeBody): Promise<ChallengeView> {
      checkTerms(body.timeControl, body.rated);
      const opponent = await resolveOpponent(body.opponent);
      if (opponent.id === player.id) throw new ApiError('SAME_PLAYER', 'you cannot challenge yourself');
      // the acceptance checks both players under their locks; this only answers early
      await refuseIfPlaying(db, player.id, body.timeControl);
      const at = now();
      const row = await db.transaction().execute(async (trx) => {
        await lockQuota(trx, 'challenges', player.id);
        if ((await countPendingChallenges(trx, player.id, at)) >= MAX_PENDING_CHALLENGES)
          throw new ApiError('TOO_MANY_CHALLENGES', `at most ${MAX_PENDING_CHALLENGES}`);
        return insertChallenge(trx, {
          id: randomUUID(),
          challenger_id: player.id,
          challenger_name: player.name,
          opponent_id: opponent.id,
          opponent_name: opponent.name,
          time_control: body.timeControl,
          rated: body.rated,
          ruleset: body.ruleset ?? 'default',
          handicap: body.handicap ?? null,
          sfen: null,
          color: body.color ?? 'random',
          rematch_of: null,
          created_at: at,
          expires_at: new Date(at.getTime() + CHALLENGE_TTL_MS),
        });
      });
      const view = challengeView(row, at);
      await notify(opponent.id, { type: 'challenge', challenge: view });
      return view;
    },

    async challenge(player: Player, id: string): Promise<ChallengeView> {
      const row = await getChallenge(db, id);
      if (!row || (row.challenger_id !== player.id && row.opponent_id !== player.id))
        throw new ApiError('CHALLENGE_NOT_FOUND');
      return challengeView(row, now());
    },

    async challenges(player: Player): Promise<ChallengeList> {
      const at = now();
      const { incoming, outgoing } = await listChallenges(db, player.id);
      return {
        incoming: incoming.map((r) => challengeView(r, at)),
        outgoing: outgoing.map((r) => challengeView(r, at)),
      };
    },

    /** Only the challenged player accepts, once: a replay answers the same game. */
    async accept(player: Player, id: string): Promise<ChallengeView> {
      const at = now();
      const done = await db.transaction().execute(async (trx) => {
        const row = await lockChallenge(trx, id);
        answerable(row, player, 'opponent');
        if (row.status === 'accepted') return { row, fresh: null };
        if (challengeView(row, at).status !== 'pending') throw new ApiError('CHALLENGE_CLOSED', statusOf(row, at));
        const accepted = await acceptLocked(trx, row, at);
        return { row: accepted.row, fresh: accepted.challengerSide };
      });
      if (done.fresh !== null) await announceAccepted(done.row, done.fresh);
      return challengeView(done.row, at);
    },

    /** Only the challenged player declines; declining again answers the same. */
    async decline(player: Player, id: string): Promise<ChallengeView> {
      return close(player, id, 'opponent', 'declined');
    },

    /** Only the challenger withdraws a pending challenge. */
    async cancelChallenge(player: Player, id: string): Promise<ChallengeView> {
      return close(player, id, 'challenger', 'cancelled');
    },

    /**
     * Offers a rematch of an ended game to the opponent (same settings, colours swapped,
     * a handicap giver stays the giver). When the opponent has already offered, this
     * accepts their offer; offering again answers the live offer. `created` is false
     * when nothing new was offered.
     */
    async rematch(player: Player, gameId: string): Promise<{ challenge: ChallengeView; created: boolean }> {
      const view = await deps.games.view(gameId);
      const mySide: Side | null =
        view.players.sente.id === player.id ? 'sente' : view.players.gote.id === player.id ? 'gote' : null;
      if (mySide === null) throw new ApiError('NOT_A_PLAYER');
      if (view.status !== 'ended') throw new ApiError('GAME_NOT_ENDED');
      const opponent = view.players[other(mySide)];
      const handicap = (await gameSetupOf(deps.db, gameId))?.handicap ?? null;
      const at = now();
      const outcome = await db.transaction().execute(async (trx) => {
        await lockRematches(trx, gameId);
        const live = await rematchesOf(trx, gameId, at);
        const accepted = live.find((r) => r.status === 'accepted');
        if (accepted) return { row: accepted, kind: 'existing' as const };
        const theirs = live.find((r) => r.challenger_id === opponent.id);
        if (theirs) {
          const locked = await lockChallenge(trx, theirs.id);
          if (locked?.status === 'pending') {
            const done = await acceptLocked(trx, locked, at);
            return { row: done.row, kind: 'accepted' as const, challengerSide: done.challengerSide };
          }
        }
        const mine = live.find((r) => r.challenger_id === player.id);
        if (mine) return { row: mine, kind: 'existing' as const };
        await refuseIfPlaying(trx, player.id, view.timeControl);
        const row = await insertChallenge(trx, {
          id: randomUUID(),
          challenger_id: player.id,
          challenger_name: player.name,
          opponent_id: opponent.id,
          opponent_name: opponent.name,
          time_control: view.timeControl,
          rated: view.rated,
          ruleset: view.ruleset,
          handicap,
          sfen: handicap === null && view.initialSfen !== START_SFEN ? view.initialSfen : null,
          color: rematchSide(mySide, handicap),
          rematch_of: gameId,
          created_at: at,
          expires_at: new Date(at.getTime() + CHALLENGE_TTL_MS),
        });
        return { row, kind: 'offered' as const };
      });
      const challenge = challengeView(outcome.row, at);
      if (outcome.kind === 'offered') await notify(opponent.id, { type: 'rematch', challenge });
      if (outcome.kind === 'accepted') await announceAccepted(outcome.row, outcome.challengerSide);
      return { challenge, created: outcome.kind === 'offered' };
    },
  };

  async function close(
    player: Player,
    id: string,
    who: 'opponent' | 'challenger',
    status: 'declined' | 'cancelled',
  ): Promise<ChallengeView> {
    const at = now();
    const done = await db.transaction().execute(async (trx) => {
      const row = await lockChallenge(trx, id);
      answerable(row, player, who);
      if (row.status === status) return { row, fresh: false };
      if (challengeView(row, at).status !== 'pending') throw new ApiError('CHALLENGE_CLOSED', statusOf(row, at));
      return { row: await closeChallenge(trx, id, status), fresh: true };
    });
    if (done.fresh) {
      const to = who === 'opponent' ? done.row.challenger_id : done.row.opponent_id;
      await notify(to, { type: status, challengeId: id });
    }
    return challengeView(done.row, at);
  }
}

interface GameTerms {
  readonly timeControl: TimeControl;
  readonly rated: boolean;
  readonly ruleset: string;
  readonly handicap: string | null;
  readonly sfen: string | null;
}

/** A seek or challenge's clock: sensible, and a real clock when rated. */
function checkTerms(timeControl: TimeControl, rated: boolean): void {
  if (rated && timeControl.kind === 'unlimited')
    throw new ApiError('INVALID_TIME_CONTROL', 'a rated game needs a clock');
  const checked = validateTimeControl(timeControl);
  if (!checked.ok) throw new ApiError('INVALID_TIME_CONTROL', checked.error.message);
}

/** Only the parties see a challenge; only `who` may answer it. */
function answerable(
  row: ChallengeRow | undefined,
  player: Player,
  who: 'opponent' | 'challenger',
): asserts row is ChallengeRow {
  if (!row || (row.challenger_id !== player.id && row.opponent_id !== player.id))
    throw new ApiError('CHALLENGE_NOT_FOUND');
  if ((who === 'opponent' ? row.opponent_id : row.challenger_id) !== player.id)
    throw new ApiError('NOT_YOUR_CHALLENGE');
}

const statusOf = (row: ChallengeRow, at: Date): string =>
  row.status === 'pending' && row.expires_at <= at ? 'expired' : row.status;

/** The terms a seek pairs on, one string: the pool (and its advisory lock) of the seek. */
export const poolKeyOf = (t: Pick<SeekTerms, 'timeControl' | 'rated' | 'ruleset' | 'handicap'>): string =>
  `${timeControlKey(t.timeControl)}|${t.rated ? 'rated' : 'casual'}|${t.ruleset}|${t.handicap ?? 'even'}`;

function termsOfSeek(row: SeekRow): SeekTerms {
  return {
    id: row.id,
    playerId: row.player_id,
    rating: row.rating,
    timeControl: row.time_control as TimeControl,
    rated: row.rated,
    ruleset: row.ruleset,
    handicap: row.handicap,
    color: row.color as ColorPreference,
    ratingRange:
      row.rating_min === null || row.rating_max === null ? null : { min: row.rating_min, max: row.rating_max },
    createdAt: row.created_at,
  };
}

const termsOfChallenge = (row: ChallengeRow): GameTerms => ({
  timeControl: row.time_control as TimeControl,
  rated: row.rated,
  ruleset: row.ruleset,
  handicap: row.handicap,
  sfen: row.sfen,
});

export function seekView(row: SeekRow, at: Date): SeekView {
  const t = termsOfSeek(row);
  const status = row.status === 'open' && row.expires_at <= at ? 'expired' : (row.status as SeekView['status']);
  return {
    id: row.id,
    player: { id: row.player_id, name: row.player_name },
    rating: row.rating,
    timeControl: t.timeControl,
    rated: row.rated,
    ratingRange: t.ratingRange,
    color: t.color,
    ruleset: row.ruleset as SeekView['ruleset'],
    handicap: row.handicap as SeekView['handicap'],
    status,
    gameId: row.game_id,
    side: row.side as Side | null,
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
  };
}

export function challengeView(row: ChallengeRow, at: Date): ChallengeView {
  return {
    id: row.id,
    challenger: { id: row.challenger_id, name: row.challenger_name },
    opponent: { id: row.opponent_id, name: row.opponent_name },
    timeControl: row.time_control as TimeControl,
    rated: row.rated,
    color: row.color as ColorPreference,
    ruleset: row.ruleset as ChallengeView['ruleset'],
    handicap: row.handicap as ChallengeView['handicap'],
    status: statusOf(row, at) as ChallengeView['status'],
    gameId: row.game_id,
    rematchOf: row.rematch_of,
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
  };
}
