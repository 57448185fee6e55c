/**
 * lishogi's BOT title on the players a view shows. An account becomes a bot for good
 * (packages/store's bot-accounts.ts), so a "bot" answer is kept for the life of the process;
 * a "not a bot" answer is kept only briefly, so an upgrade shows soon. Views read it often
 * (every watch snapshot, every live list), and this keeps them from asking the database each
 * time; lists ask once for all the players they show.
 */

export type BotTitle = 'BOT';

export interface BotTitles {
  /** The bot accounts among the ids; never throws (a failed look-up shows no title, and is not kept). */
  bots(ids: readonly string[]): Promise<ReadonlySet<string>>;
}

export interface BotTitleOptions {
  /** How long "not a bot" is believed. */
  readonly negativeMs?: number;
  /** Ids remembered as "not a bot" at most; past it the oldest are forgotten first. */
  readonly negativeLimit?: number;
  readonly now?: () => number;
  readonly onError?: (err: unknown) => void;
}

/** For tests and for gateways without a database: nobody is a bot. */
export const NO_BOT_TITLES: BotTitles = { bots: async () => new Set() };

/** `lookup` answers the bot accounts among the ids it is given (one query). */
export function cachedBotTitles(
  lookup: (ids: readonly string[]) => Promise<readonly string[]>,
  options: BotTitleOptions = {},
): BotTitles {
  const negativeMs = options.negativeMs ?? 30_000;
  const negativeLimit = options.negativeLimit ?? 50_000;
  const now = options.now ?? Date.now;
  const bots = new Set<string>();
  // id -> when the "not a bot" answer stops being believed; Map order is insertion order
  const notBots = new Map<string, number>();

  const knownNotBot = (id: string, at: number): boolean => {
    const until = notBots.get(id);
    if (until === undefined) return false;
    if (until > at) return true;
    notBots.delete(id);
    return false;
  };

  return {
    async bots(ids) {
      const at = now();
      const unknown = [...new Set(ids)].filter((id) => !bots.has(id) && !knownNotBot(id, at));
      if (unknown.length > 0) {
        try {
          const found = new Set(await lookup(unknown));
          for (const id of unknown) {
            if (found.has(id)) {
              bots.add(id);
              notBots.delete(id);
            } else {
              notBots.delete(id);
              notBots.set(id, at + negativeMs);
            }
          }
          for (const id of notBots.keys()) {
            if (notBots.size <= negativeLimit) break;
            notBots.delete(id);
          }
        } catch (err) {
          options.onError?.(err);
        }
      }
      return new Set(ids.filter((id) => bots.has(id)));
    },
  };
}

/** The player with `title: 'BOT'` when a bot, unchanged (no `title` key) otherwise. */
export function titled<T extends { readonly id: string }>(
  player: T,
  bots: ReadonlySet<string>,
): T & { title?: BotTitle } {
  return bots.has(player.id) ? { ...player, title: 'BOT' } : player;
}

/** The two players of a game view (or a live game, or a snapshot) with their titles. */
export async function withPlayerTitles<V extends { readonly players: { sente: { id: string }; gote: { id: string } } }>(
  titles: BotTitles,
  view: V,
): Promise<V> {
  const { sente, gote } = view.players;
  const bots = await titles.bots([sente.id, gote.id]);
  if (bots.size === 0) return view;
  return { ...view, players: { sente: titled(sente, bots), gote: titled(gote, bots) } };
}
