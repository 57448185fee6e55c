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
  if (realTime) {
    await tx.lockPlayers(held);
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
 * are [id, name] pairs; one already playing is ALREADY_PLAYING, naming them.
 */
export async function startTogether<T>(
  store: Transactional<StartTx>,
  players: readonly (readonly [id: string, name: string])[],
  timeControl: TimeControl,
  at: Date,
  start: () => Promise<T>,
): Promise<T> {
  if (!isRealTime(timeControl)) return start();
  const ids = players.map(([id]) => id);
  return store.transaction(async (tx) => {
    await tx.lockPlayers(ids);
    for (const [id, name] of players) {
      const playing = await realTimeGameOf(tx, id);
      if (playing !== null) throw new ApiError('ALREADY_PLAYING', `${name} plays game ${playing}`);
    }
    const started = await start();
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
