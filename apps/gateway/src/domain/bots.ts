/**
 * The bots a process offers as opponents. The gateway only creates the game and hands it
 * over; the bot itself (apps/server's demo bot) plays through the public API like anyone.
 */
import type { GameView } from '@shogi/protocol';

export interface Bot {
  readonly id: string;
  readonly name: string;
  /** called once the game exists; the bot plays it to its end */
  join(game: GameView): void;
}

export class BotRegistry {
  private readonly bots = new Map<string, Bot>();

  add(bot: Bot): void {
    this.bots.set(bot.id, bot);
  }

  get(id: string): Bot | undefined {
    return this.bots.get(id);
  }

  list(): { id: string; name: string }[] {
    return [...this.bots.values()].map(({ id, name }) => ({ id, name }));
  }
}
