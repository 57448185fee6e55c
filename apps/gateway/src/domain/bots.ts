/**
 * The bots a process runs. The gateway only creates the game and hands it over; the bot
 * itself (apps/server's demo and house bots) plays through the public API like anyone. A bot
 * without `join` finds its games itself (bot-lobby answers seeks and rematch offers): it is
 * listed so that clients know its player for a bot, but nobody starts a game against it here.
 */
import type { BotRef, GameView } from '@shogi/protocol';

export interface Bot {
  /** what `/api/bots/:id/games` takes: the bot's player id, or a stable handle like `engine-4` */
  readonly id: string;
  /** the player the bot plays as, when `id` is a handle rather than that player's id */
  readonly playerId?: string;
  readonly name: string;
  /** a house engine bot's level (1–8); none for the random demo bot */
  readonly level?: number;
  /** called once the game exists (started by a person, or a rematch); the bot plays it to its end */
  join?(game: GameView): void;
}

export class BotRegistry {
  private readonly bots = new Map<string, Bot>();

  add(bot: Bot): void {
    this.bots.set(bot.id, bot);
  }

  /** by its id, or by its player's id: a game page knows only the players */
  get(id: string): Bot | undefined {
    return this.bots.get(id) ?? this.ofPlayer(id);
  }

  /** the bot that plays as this player */
  ofPlayer(playerId: string): Bot | undefined {
    for (const bot of this.bots.values()) if ((bot.playerId ?? bot.id) === playerId) return bot;
    return undefined;
  }

  list(): BotRef[] {
    return [...this.bots.values()].map(({ id, name, playerId, level, join }) => ({
      id,
      name,
      ...(playerId === undefined ? {} : { playerId }),
      ...(level === undefined ? {} : { level }),
      ...(join === undefined ? { seeksOnly: true as const } : {}),
    }));
  }
}
