/**
 * The bots a process offers as opponents. The gateway only creates the game and hands it
 * over; the bot itself (apps/server's demo and house bots) plays through the public API
 * like anyone.
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
  /** called once the game exists; the bot plays it to its end */
  join(game: GameView): void;
}

export class BotRegistry {
  private readonly bots = new Map<string, Bot>();

  add(bot: Bot): void {
    this.bots.set(bot.id, bot);
  }

  /** by its id, or by its player's id: a game page knows only the players */
  get(id: string): Bot | undefined {
    return this.bots.get(id) ?? [...this.bots.values()].find((bot) => bot.playerId === id);
  }

  list(): BotRef[] {
    return [...this.bots.values()].map(({ id, name, playerId, level }) => ({
      id,
      name,
      ...(playerId === undefined ? {} : { playerId }),
      ...(level === undefined ? {} : { level }),
    }));
  }
}
