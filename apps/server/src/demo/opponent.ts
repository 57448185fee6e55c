/**
 * The demo bot as an opponent for people: it registers with the gateway's bot registry,
 * and each game a person starts against it (`POST /api/bots/:id/games`) is played by
 * playAsBot through the public API, like the demo games.
 */
import type { Bot, BotRegistry } from '@shogi/gateway';
import type { Logger } from 'pino';
import { ApiClient } from '../client.js';
import { playAsBot } from './bot.js';
import { seeded } from './brain.js';
import { type CreatePlayer, createBotPlayer } from './players.js';

export interface OpponentOptions {
  readonly baseUrl: string;
  readonly registry: BotRegistry;
  readonly logger: Logger;
  readonly name?: string;
  /** how the bot's player is made (default: POST /api/players on baseUrl) */
  readonly createPlayer?: CreatePlayer;
  /** pause before each move, so the person sees the reply arrive */
  readonly moveDelayMs?: number;
  /** the bot resigns a game in which nobody moved for this long (default 15 min) */
  readonly idleMs?: number;
}

/**
 * Bot games are unlimited, so a game its person walks away from would hold the bot's socket
 * for ever: the bot checks the game now and then and resigns once it has been idle `idleMs`.
 */
export function resignWhenIdle(api: ApiClient, gameId: string, token: string, idleMs: number): () => void {
  let lastPly = -1;
  let since = Date.now();
  const timer = setInterval(
    () => {
      api.game(gameId).then(
        (g) => {
          if (g.status === 'ended') return clearInterval(timer);
          if (g.ply !== lastPly) {
            lastPly = g.ply;
            since = Date.now();
          } else if (Date.now() - since >= idleMs) {
            clearInterval(timer);
            api.resign(gameId, token).catch(() => {});
          }
        },
        () => {},
      );
    },
    Math.min(60_000, Math.max(1_000, idleMs / 4)),
  );
  timer.unref();
  return () => clearInterval(timer);
}

/** Creates the bot's player and registers it; resolves with the bot. */
export async function startBotOpponent(options: OpponentOptions): Promise<Bot> {
  const api = new ApiClient(options.baseUrl);
  const player = await createBotPlayer(
    options.createPlayer ?? ((name) => api.createPlayer(name)),
    options.name ?? 'demo-bot',
  );
  const random = seeded(Date.now());
  const bot: Bot = {
    id: player.id,
    name: player.name,
    join(view) {
      const stopWatching = resignWhenIdle(api, view.id, player.token, options.idleMs ?? 15 * 60_000);
      playAsBot(view, {
        api,
        player,
        via: 'ws',
        random,
        moveDelayMs: options.moveDelayMs ?? 400,
        maxMoves: 400,
        onError: (message) => options.logger.debug(`Bot: game ${view.id}: ${message}`),
      })
        .then(
          (end) => options.logger.info(`Bot: game ${view.id} ended by ${end.reason} after ${end.moves} moves`),
          (err: unknown) => options.logger.warn({ err }, `Bot: game ${view.id} stopped after an error`),
        )
        .finally(stopWatching);
    },
  };
  options.registry.add(bot);
  return bot;
}
