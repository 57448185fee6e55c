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

export interface OpponentOptions {
  readonly baseUrl: string;
  readonly registry: BotRegistry;
  readonly logger: Logger;
  readonly name?: string;
  /** pause before each move, so the person sees the reply arrive */
  readonly moveDelayMs?: number;
}

/** Creates the bot's player and registers it; resolves with the bot. */
export async function startBotOpponent(options: OpponentOptions): Promise<Bot> {
  const api = new ApiClient(options.baseUrl);
  const player = await api.createPlayer(options.name ?? 'demo-bot');
  const random = seeded(Date.now());
  const bot: Bot = {
    id: player.id,
    name: player.name,
    join(view) {
      playAsBot(view, {
        api,
        player,
        via: 'ws',
        random,
        moveDelayMs: options.moveDelayMs ?? 400,
        maxMoves: 400,
        onError: (message) => options.logger.debug(`Bot: game ${view.id}: ${message}`),
      }).then(
        (end) => options.logger.info(`Bot: game ${view.id} ended by ${end.reason} after ${end.moves} moves`),
        (err: unknown) => options.logger.warn({ err }, `Bot: game ${view.id} stopped after an error`),
      );
    },
  };
  options.registry.add(bot);
  return bot;
}
