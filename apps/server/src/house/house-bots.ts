/**
 * The house engine bots `engine-1` … `engine-8`: one registered bot per level, each a player
 * of its own that plays its games through the public API like the demo bot (playAsBot), so
 * every move goes through the gateway's command handler; only the choice of move differs:
 * the engine role's answer (engine-client.ts), with the clock read from the game view before
 * each move, or the built-in move when no engine answers in time.
 *
 * A level's player has a fixed id, so every gateway process that runs the bots, and every
 * restart, plays as the same player (one "Engine level 4", with one history); each process
 * holds a token of its own for it, revoked when the process stops. One process plays a game
 * at a time, the one that claimed it (game-claims.ts); each process looks now and then for
 * the bots' ongoing games that nobody plays (a restarted or dead process's) and takes them up.
 */
import { LEVEL_NUMBERS, LEVELS, type Level, timeLeftMs } from '@shogi/engine-bots';
import type { Bot, BotRegistry, HousePlayer, HousePlayers } from '@shogi/gateway';
import type { GameView, Side } from '@shogi/protocol';
import type { UsiScore } from '@shogi/usi';
import type { Logger } from 'pino';
import { v5 as uuidV5 } from 'uuid';
import { ApiClient, bearer } from '../client.js';
import { type Decide, playAsBot, replay } from '../demo/bot.js';
import { chooseMove, type Random, seeded } from '../demo/brain.js';
import { resignWhenIdle } from '../demo/opponent.js';
import type { EngineClient } from './engine-client.js';
import type { GameClaims } from './game-claims.js';

export interface HouseBotsOptions {
  readonly baseUrl: string;
  readonly registry: BotRegistry;
  readonly logger: Logger;
  readonly engine: EngineClient;
  readonly levels?: readonly Level[];
  /** a level's player, shared by every process under its fixed id (RunningGateway.housePlayer) */
  readonly housePlayer: HousePlayers;
  /** pause before each move, so a person sees the reply arrive; it is taken from the bot's clock */
  readonly moveDelayMs?: number;
  /** a bot resigns a game in which nobody moved for this long (default 15 min) */
  readonly idleMs?: number;
  /** who plays each game among the processes (default: this one plays every game it sees) */
  readonly claims?: GameClaims;
  /** how often to look for the bots' ongoing games nobody plays (default 30 s; 0: at start only) */
  readonly resumeEveryMs?: number;
}

export const houseBotId = (level: Level): string => `engine-${level}`;
export const houseBotName = (level: Level): string => `Engine level ${level}`;

/** The namespace of the house bots' name-based player ids (a random UUID, drawn once). */
const HOUSE_BOT_NAMESPACE = '5b0f3c57-2a55-4a63-9d4e-7f1c1d8f6a20';

/** A level's player id: a name-based UUID (version 5), the same in every process and release. */
export const houseBotPlayerId = (level: Level): string => uuidV5(houseBotId(level), HOUSE_BOT_NAMESPACE);

/** The bots' pause before each move unless told (HouseBotsOptions.moveDelayMs). */
export const DEFAULT_MOVE_DELAY_MS = 200;

/** The longest a bot waits for the engine when its clock does not say (unlimited, correspondence). */
const MAX_WAIT_MS = 60_000;
/** Kept back from the clock when waiting: the built-in move still reaches the server in time. */
const WAIT_MARGIN_MS = 300;

export interface EngineDecideContext {
  readonly engine: EngineClient;
  readonly random: Random;
  /** told when the bot plays a built-in move instead of the engine's */
  readonly onFallback: (reason: string) => void;
}

/**
 * How a house bot at `level` chooses in one game: it reads the game view for the clock as it
 * stands, asks the engine role, and keeps its own searches' scores, from which the engine
 * role decides to resign. Without an answer in time it plays a built-in move.
 */
export function engineDecide(
  api: ApiClient,
  gameId: string,
  side: Side,
  level: Level,
  context: EngineDecideContext,
): Decide {
  const scores: (UsiScore | undefined)[] = [];
  return async (moves) => {
    const view = await api.game(gameId);
    if (view.status === 'ended') return null;
    const { initialSfen, ruleset, clock, timeControl } = view;
    const left = timeLeftMs(clock, side, timeControl, Date.now());
    const waitMs = Math.max(1, Math.min(MAX_WAIT_MS, left === null ? MAX_WAIT_MS : left - WAIT_MARGIN_MS));
    const data = { level, gameId, initialSfen, moves, ruleset, side, clock, timeControl, scores };
    const answer = await context.engine.move(data, waitMs);
    switch (answer.kind) {
      case 'move':
        scores.push(answer.score);
        return { kind: 'move', usi: answer.usi };
      case 'resign':
      case 'impasse':
        return answer;
      default: {
        context.onFallback(answer.reason);
        const usi = chooseMove(replay(initialSfen, ruleset, moves), context.random);
        return usi === null ? null : { kind: 'move', usi };
      }
    }
  };
}

export interface HouseBots {
  readonly bots: readonly Bot[];
  /**
   * Stops playing (the games are let go, for another process to take up) and revokes this
   * process' tokens for the bots' players (before the gateway closes).
   */
  release(): Promise<void>;
}

/** The most ongoing games of one level taken up in one look (lishogi's `nb` allows 50). */
const RESUME_BATCH = 50;

/** Claims for one process alone: it plays every game it is given or finds. */
const ownClaims = (): GameClaims => ({
  renewEveryMs: 60_000,
  claim: async () => true,
  renew: async () => true,
  release: async () => {},
});

/** Takes the bots' players, with a token each for this process, and registers the bots. */
export async function startHouseBots(options: HouseBotsOptions): Promise<HouseBots> {
  const api = new ApiClient(options.baseUrl);
  const random = seeded(Date.now());
  const bots: Bot[] = [];
  const players: HousePlayer[] = [];
  const claims = options.claims ?? ownClaims();
  // the games this process plays, each with what stops it
  const playing = new Map<string, AbortController>();
  let stopping = false;
  const resumers: { player: HousePlayer; play(view: GameView, takenUp: boolean): Promise<void> }[] = [];
  for (const level of options.levels ?? LEVEL_NUMBERS) {
    const player = await options.housePlayer(houseBotPlayerId(level), houseBotName(level));
    players.push(player);
    const logger = options.logger.child({ bot: houseBotId(level) });
    const context: EngineDecideContext = {
      engine: options.engine,
      random,
      onFallback: (reason) => logger.debug(`a built-in move instead of the engine's: ${reason}`),
    };
    /** Plays a game of this bot's to its end, once this process holds it. */
    const play = async (view: GameView, takenUp = false): Promise<void> => {
      if (stopping || playing.has(view.id) || !(await claims.claim(view.id))) return;
      if (stopping || playing.has(view.id)) return;
      const stop = new AbortController();
      playing.set(view.id, stop);
      if (takenUp) logger.info(`${player.name}: took up game ${view.id} at ply ${view.ply}, which no process played`);
      // a claim another process holds now (ours lapsed): that process plays on, this one stops
      const renewal = setInterval(() => {
        claims.renew(view.id).then(
          (held) => {
            if (!held) stop.abort();
          },
          (err: unknown) => logger.debug({ err }, `game ${view.id}: claim not renewed`),
        );
      }, claims.renewEveryMs);
      renewal.unref();
      const side: Side = view.players.sente.id === player.id ? 'sente' : 'gote';
      const stopWatching = resignWhenIdle(api, view.id, player.token, options.idleMs ?? 15 * 60_000);
      await playAsBot(view, {
        api,
        player,
        via: 'ws',
        random,
        moveDelayMs: options.moveDelayMs ?? DEFAULT_MOVE_DELAY_MS,
        maxMoves: 1000,
        decide: engineDecide(api, view.id, side, level, context),
        onError: (message) => logger.debug(`game ${view.id}: ${message}`),
        signal: stop.signal,
      })
        .then(
          (end) => logger.info(`${player.name}: game ${view.id} ended by ${end.reason} after ${end.moves} moves`),
          async (err: unknown) => {
            // a game the bot can no longer play is resigned, not left for the person to wait on
            logger.warn({ err }, `${player.name}: game ${view.id} stopped after an error; resigning it`);
            await api.resign(view.id, player.token).catch(() => {});
          },
        )
        .finally(() => {
          clearInterval(renewal);
          stopWatching();
          playing.delete(view.id);
        });
      await claims.release(view.id).catch(() => {});
    };
    resumers.push({ player, play });
    const bot: Bot = {
      id: houseBotId(level),
      playerId: player.id,
      name: player.name,
      level,
      join(view: GameView) {
        play(view).catch((err: unknown) => logger.warn({ err }, `${player.name}: game ${view.id} not played`));
      },
    };
    options.registry.add(bot);
    bots.push(bot);
  }
  options.logger.info(
    `House bots: ${bots.map((b) => `${b.id} (${LEVELS[b.level as Level].description})`).join(', ')}: POST /api/bots/:id/games`,
  );
  // the bots' ongoing games nobody plays: a restarted process's, a dead one's once its claims lapse
  const resume = async () => {
    for (const { player, play } of resumers) {
      const answer = await api.request<{ nowPlaying: { gameId: string }[] }>(
        'GET',
        `/api/account/playing?nb=${RESUME_BATCH}`,
        undefined,
        bearer(player.token),
      );
      if (!answer.ok) throw new Error(`their games: ${answer.status} ${answer.body.code}`);
      for (const { gameId } of answer.body.nowPlaying) {
        if (stopping || playing.has(gameId)) continue;
        const view = await api.game(gameId);
        if (view.status !== 'ongoing') continue;
        play(view, true).catch((err: unknown) =>
          options.logger.warn({ err }, `${player.name}: game ${gameId} not played`),
        );
      }
    }
  };
  const resumed = (what: string) => (err: unknown) => options.logger.warn({ err }, `House bots: ${what} failed`);
  let looking = resume().catch(resumed('taking up their games'));
  const every = options.resumeEveryMs ?? 30_000;
  const resumeTimer =
    every > 0
      ? setInterval(() => {
          looking = looking.then(() => resume().catch(resumed('looking for games nobody plays')));
        }, every)
      : undefined;
  resumeTimer?.unref();
  return {
    bots,
    release: async () => {
      stopping = true;
      clearInterval(resumeTimer);
      await looking;
      const games = [...playing.keys()];
      for (const stop of playing.values()) stop.abort();
      await Promise.all(games.map((gameId) => claims.release(gameId).catch(() => {})));
      await Promise.all(players.map((player) => player.release()));
    },
  };
}
