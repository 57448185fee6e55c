/**
 * What every way of starting a game shares (a seek paired, a challenge or rematch offer
 * accepted): the game from the agreed terms, the one-real-time-game rule, the acceptance of
 * a locked challenge, and telling both players.
 */
import {
  type ColorPreference,
  type CreateGameBody,
  type GameView,
  isRealTime,
  type LobbyMessage,
  REAL_TIME_KINDS,
  type Side,
  type TimeControl,
} from '@shogi/protocol';
import { ApiError } from '../api-error.js';
import type { BotTitles } from '../bot-titles.js';
import { refuseBot } from './bot-accounts.js';
import { other, sideOf } from './pairing.js';
import type {
  AnswerTx,
  BotReads,
  LobbyBots,
  LobbyGames,
  PlayingReads,
  StartTx,
  StoredChallenge,
  Transactional,
} from './ports.js';
import { type GameTerms, termsOfChallenge } from './views.js';

/** What the three lobby services share besides their store. */
export interface LobbyContext {
  readonly games: LobbyGames;
  /** Never throws: a lost notification is found again by polling the seek or challenge. */
  readonly notify: (playerId: string, message: LobbyMessage) => Promise<void>;
  readonly now: () => Date;
  /** true: sente, for players who both left the colour open */
  readonly coin: () => boolean;
  readonly bots: LobbyBots;
  /** the BOT titles of the players challenges show */
  readonly titles: BotTitles;
  /** rated games one pair may start in 24 hours (RATED_GAMES_PER_PAIR_PER_DAY); 0: no cap */
  readonly ratedGamesPerPair: number;
}

const DAY_MS = 24 * 3600_000;

/**
 * Whether the two players may start one more rated game together: fewer than `max` rated
 * games between them started in the last 24 hours (either colour). Two accounts of one person
 * would otherwise trade rating points game after game. Under both players' locks (a start)
 * it is the rule; without them, only an early answer.
 */
export async function ratedPairAllowed(
  reads: PlayingReads,
  max: number,
  a: string,
  b: string,
  at: Date,
): Promise<boolean> {
  if (max === 0) return true;
  return (await reads.ratedGamesBetween(a, b, new Date(at.getTime() - DAY_MS))) < max;
}

/** Refuses a rated game between a pair that has reached the cap: they may play casual instead. */
export async function refuseRatedPairOverLimit(
  reads: PlayingReads,
  max: number,
  a: string,
  b: string,
  at: Date,
): Promise<void> {
  if (!(await ratedPairAllowed(reads, max, a, b, at)))
    throw new ApiError('RATED_PAIR_LIMIT', `at most ${max} rated games together in 24 hours`);
}

/** A gateway without bots of its own. */
export const NO_BOTS: LobbyBots = { runs: () => false, join: () => undefined };

export const createGameFor = (games: LobbyGames, sente: string, gote: string, terms: GameTerms) =>
  games.createGame({
    sente,
    gote,
    ruleset: terms.ruleset as 'default' | 'jsa',
    timeControl: terms.timeControl,
    rated: terms.rated,
    ...(terms.handicap === null ? {} : { handicap: terms.handicap as NonNullable<CreateGameBody['handicap']> }),
    ...(terms.sfen === null ? {} : { sfen: terms.sfen }),
  });

/** The player's ongoing real-time game, or null. */
export const realTimeGameOf = (reads: PlayingReads, playerId: string) => reads.ongoingGameOf(playerId, REAL_TIME_KINDS);

/**
 * Refuses a player in a real-time game something that would start another one. Without the
 * player's lock it is only an early answer; under it (a pairing) it is the rule.
 */
export async function refuseIfPlaying(reads: PlayingReads, playerId: string, timeControl: TimeControl): Promise<void> {
  if (!isRealTime(timeControl)) return;
  const playing = await realTimeGameOf(reads, playerId);
  if (playing !== null) throw new ApiError('ALREADY_PLAYING', `game ${playing}`);
}

/**
 * Starts a game of one person's own (a bot game: the bot, which plays many games at once, is
 * exempt) under the one-real-time-game rule: a real-time one is created under the person's
 * lock only when they are in no real-time game, so two requests at once start one game.
 * Other games are not limited and take no lock. A bot account plays none (bot-accounts.ts).
 */
export async function startAlone<T>(
  store: Transactional<StartTx> & BotReads,
  playerId: string,
  timeControl: TimeControl | undefined,
  start: () => Promise<T>,
): Promise<T> {
  if (timeControl === undefined || !isRealTime(timeControl)) {
    await refuseBot(store, playerId);
    return start();
  }
  return store.transaction(async (tx) => {
    await tx.lockPlayers([playerId]);
    await refuseBot(tx, playerId);
    await refuseIfPlaying(tx, playerId, timeControl);
    return start();
  });
}

/**
 * Accepts a locked pending challenge inside its transaction (by its opponent, or at once for a
 * bot the gateway runs): creates the game, records it. A real-time game starts only when
 * neither player is in one, checked under both players' locks; their open real-time seeks,
 * which could no longer pair, are withdrawn with it. A bot plays many games at once, as on
 * lishogi (a bot the gateway runs, or a bot account): it is neither locked nor checked. `asker` is whose request this is: their own game
 * is ALREADY_PLAYING, the other party's OPPONENT_PLAYING.
 */
export async function acceptLocked(
  context: LobbyContext,
  tx: AnswerTx,
  row: StoredChallenge,
  at: Date,
  asker: 'opponent' | 'challenger' = 'opponent',
): Promise<{ row: StoredChallenge; challengerSide: Side; game: GameView }> {
  const terms = termsOfChallenge(row);
  const realTime = isRealTime(terms.timeControl);
  const held: string[] = [];
  for (const id of [row.challenger_id, row.opponent_id])
    if (!context.bots.runs(id) && !(await tx.isBotAccount(id))) held.push(id);
  // a rated game's pair count holds under both players' locks, bots' included (one lock step, in id order)
  const pairCapped = terms.rated && context.ratedGamesPerPair > 0;
  if (pairCapped) await tx.lockPlayers([row.challenger_id, row.opponent_id]);
  else if (realTime) await tx.lockPlayers(held);
  if (pairCapped) await refuseRatedPairOverLimit(tx, context.ratedGamesPerPair, row.challenger_id, row.opponent_id, at);
  if (realTime) {
    const askerId = asker === 'opponent' ? row.opponent_id : row.challenger_id;
    for (const [id, name] of [
      [row.opponent_id, row.opponent_name],
      [row.challenger_id, row.challenger_name],
    ] as const) {
      if (!held.includes(id)) continue;
      const playing = await realTimeGameOf(tx, id);
      if (playing === null) continue;
      if (id === askerId) throw new ApiError('ALREADY_PLAYING', `game ${playing}`);
      throw new ApiError('OPPONENT_PLAYING', `${name} plays game ${playing}`);
    }
  }
  const challengerSide = sideOf(row.color as ColorPreference, 'random', context.coin);
  const [sente, gote] =
    challengerSide === 'sente' ? [row.challenger_id, row.opponent_id] : [row.opponent_id, row.challenger_id];
  const game = await createGameFor(context.games, sente, gote, terms);
  if (realTime) await tx.withdrawOpenSeeks(held, at, REAL_TIME_KINDS);
  return { row: await tx.closeChallenge(row.id, 'accepted', game.id), challengerSide, game };
}

/**
 * Starts a game between two players who were put together outside the lobby's tables (a CSA
 * pairing) under the one-real-time-game rule: a real-time one only when neither is in one,
 * checked under both players' locks, their open real-time seeks withdrawn with it. `players`
 * are [id, name] pairs; one already playing is ALREADY_PLAYING, naming them. `start` learns
 * whether the pair may still start a rated game today (ratedPairAllowed), under the locks.
 */
export async function startTogether<T>(
  store: Transactional<StartTx>,
  players: readonly [readonly [id: string, name: string], readonly [id: string, name: string]],
  timeControl: TimeControl,
  at: Date,
  start: (ratedAllowed: boolean) => Promise<T>,
  ratedGamesPerPair = 0,
): Promise<T> {
  const ids = players.map(([id]) => id);
  const [a, b] = [players[0][0], players[1][0]];
  if (!isRealTime(timeControl)) {
    if (ratedGamesPerPair === 0) return start(true);
    return store.transaction(async (tx) => {
      await tx.lockPlayers(ids);
      return start(await ratedPairAllowed(tx, ratedGamesPerPair, a, b, at));
    });
  }
  return store.transaction(async (tx) => {
    await tx.lockPlayers(ids);
    for (const [id, name] of players) {
      const playing = await realTimeGameOf(tx, id);
      if (playing !== null) throw new ApiError('ALREADY_PLAYING', `${name} plays game ${playing}`);
    }
    // a pair past its daily cap of rated games still plays: casual, as the caller decides
    const started = await start(await ratedPairAllowed(tx, ratedGamesPerPair, a, b, at));
    await tx.withdrawOpenSeeks(ids, at, REAL_TIME_KINDS);
    return started;
  });
}

/** Tells both players of an accepted challenge their game and colour (after the commit). */
export async function announceAccepted(
  context: LobbyContext,
  row: StoredChallenge,
  challengerSide: Side,
): Promise<void> {
  const gameId = row.game_id as string;
  await Promise.all([
    context.notify(row.challenger_id, { type: 'accepted', challengeId: row.id, gameId, color: challengerSide }),
    context.notify(row.opponent_id, { type: 'accepted', challengeId: row.id, gameId, color: other(challengerSide) }),
  ]);
}
