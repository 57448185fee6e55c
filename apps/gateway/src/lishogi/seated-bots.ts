/**
 * Whether a player seated in a game is a bot account, read once per player and then kept: the
 * game routes ask on every move, and the answer cannot change for such a player. An account
 * becomes a bot only while no game of its is recorded (@shogi/store's upgradeToBot, under the
 * player's lobby lock, which every lobby game start takes) and never stops being one; a player
 * seated in a game has one recorded. So this is only for players whose seat was checked first.
 */

/** Players kept at most: the oldest is dropped past it (and read again when it next moves). */
export const SEATED_BOTS_LIMIT = 10_000;

export type IsBot = (playerId: string) => Promise<boolean>;

export function seatedBots(read: IsBot, limit = SEATED_BOTS_LIMIT): IsBot {
  const known = new Map<string, boolean>();
  return async (playerId) => {
    const kept = known.get(playerId);
    if (kept !== undefined) return kept;
    const bot = await read(playerId);
    if (known.size >= limit) {
      const oldest = known.keys().next();
      if (!oldest.done) known.delete(oldest.value);
    }
    known.set(playerId, bot);
    return bot;
  };
}
