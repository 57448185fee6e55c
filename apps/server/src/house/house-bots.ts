/**
 * The house engine bots `engine-1` … `engine-8`: one registered bot per level, each a player
 * of its own that plays its games through the public API like the demo bot (playAsBot), so
 * every move goes through the gateway's command handler; only the choice of move differs:
 * engine-move.ts, with the clock read from the game view before each move.
 */
import { LEVEL_NUMBERS, LEVELS, type Level } from '@shogi/engine-bots';
import type { Bot, BotRegistry } from '@shogi/gateway';
import type { GameView, Side } from '@shogi/protocol';
import type { UsiScore } from '@shogi/usi';
import type { Logger } from 'pino';
import { ApiClient } from '../client.js';
import { type Decide, playAsBot } from '../demo/bot.js';
import { seeded } from '../demo/brain.js';
import { resignWhenIdle } from '../demo/opponent.js';
import { type CreatePlayer, createBotPlayer } from '../demo/players.js';
import { type EngineMoveContext, engineMove } from './engine-move.js';

export interface HouseBotsOptions {
  readonly baseUrl: string;
  readonly registry: BotRegistry;
  readonly logger: Logger;
  readonly engines: Omit<EngineMoveContext, 'onWarning' | 'random'>;
  readonly levels?: readonly Level[];
  /** how the bots' players are made (default: POST /api/players on baseUrl) */
  readonly createPlayer?: CreatePlayer;
  /** pause before each move, so a person sees the reply arrive; it is taken from the bot's clock */
  readonly moveDelayMs?: number;
  /** a bot resigns a game in which nobody moved for this long (default 15 min) */
  readonly idleMs?: number;
}

export const houseBotId = (level: Level): string => `engine-${level}`;
export const houseBotName = (level: Level): string => `Fairy-Stockfish level ${level}`;

/**
 * How a house bot at `level` chooses in one game: it reads the game view for the clock as it
 * stands and keeps its own searches' scores, from which it resigns.
 */
export function engineDecide(
  api: ApiClient,
  gameId: string,
  side: Side,
  level: Level,
  context: EngineMoveContext,
): Decide {
  const scores: (UsiScore | undefined)[] = [];
  return async (moves) => {
    const view = await api.game(gameId);
    if (view.status === 'ended') return null;
    const { initialSfen, ruleset, clock, timeControl } = view;
    const answer = await engineMove({ level, initialSfen, moves, ruleset, side, clock, timeControl, scores }, context);
    if (answer?.kind === 'move') scores.push(answer.score);
    return answer;
  };
}

/** Creates the bots' players and registers them; resolves with the bots. */
export async function startHouseBots(options: HouseBotsOptions): Promise<Bot[]> {
  const api = new ApiClient(options.baseUrl);
  const create = options.createPlayer ?? ((name: string) => api.createPlayer(name));
  const random = seeded(Date.now());
  const bots: Bot[] = [];
  for (const level of options.levels ?? LEVEL_NUMBERS) {
    const player = await createBotPlayer(create, houseBotName(level));
    const logger = options.logger.child({ bot: houseBotId(level) });
    const context: EngineMoveContext = {
      ...options.engines,
      random,
      onWarning: (message) => logger.warn(message),
    };
    const bot: Bot = {
      id: houseBotId(level),
      playerId: player.id,
      name: player.name,
      level,
      join(view: GameView) {
        const side: Side = view.players.sente.id === player.id ? 'sente' : 'gote';
        const stopWatching = resignWhenIdle(api, view.id, player.token, options.idleMs ?? 15 * 60_000);
        playAsBot(view, {
          api,
          player,
          via: 'ws',
          random,
          moveDelayMs: options.moveDelayMs ?? 200,
          maxMoves: 1000,
          decide: engineDecide(api, view.id, side, level, context),
          onError: (message) => logger.debug(`game ${view.id}: ${message}`),
        })
          .then(
            (end) => logger.info(`${player.name}: game ${view.id} ended by ${end.reason} after ${end.moves} moves`),
            (err: unknown) => logger.warn({ err }, `${player.name}: game ${view.id} stopped after an error`),
          )
          .finally(stopWatching);
      },
    };
    options.registry.add(bot);
    bots.push(bot);
  }
  options.logger.info(
    `House bots: ${bots.map((b) => `${b.id} (${LEVELS[b.level as Level].description})`).join(', ')}: POST /api/bots/:id/games`,
  );
  return bots;
}
