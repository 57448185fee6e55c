/**
 * The players of a game as an API that shows them beside the board needs them: the name,
 * the account's username (none for a guest) and the rating in the game's category, its
 * deviation grown to `now` by the idle time since the player's latest rated game there.
 */
import { isProvisional, NEW_PLAYER, type RatingCategory, ratingAt } from '@shogi/ratings';
import { ratingsDb } from './ratings/queries.js';
import type { Db } from './schema.js';

export interface GamePlayer {
  readonly id: string;
  readonly name: string;
  /** null for a guest */
  readonly username: string | null;
  /** rounded; a player without a rated game in the category has the Glicko-2 start */
  readonly rating: number;
  readonly provisional: boolean;
}

/** The players of `ids` that exist, in no particular order; one indexed read. */
export async function gamePlayers(
  db: Db,
  ids: readonly string[],
  category: RatingCategory,
  now: Date = new Date(),
): Promise<GamePlayer[]> {
  if (ids.length === 0) return [];
  const rows = await ratingsDb(db)
    .selectFrom('players')
    .leftJoin('accounts', 'accounts.player_id', 'players.id')
    .leftJoin('ratings', (join) =>
      join.onRef('ratings.player_id', '=', 'players.id').on('ratings.category', '=', category),
    )
    .select([
      'players.id',
      'players.name',
      'accounts.username',
      'ratings.rating',
      'ratings.rd',
      'ratings.volatility',
      'ratings.updated_at',
    ])
    .where('players.id', 'in', ids)
    .execute();
  return rows.map((r) => {
    const rated =
      r.rating === null || r.rd === null || r.volatility === null || r.updated_at === null
        ? NEW_PLAYER
        : ratingAt({ rating: r.rating, deviation: r.rd, volatility: r.volatility }, r.updated_at, now);
    return {
      id: r.id,
      name: r.name,
      username: r.username,
      rating: Math.round(rated.rating),
      provisional: isProvisional(rated),
    };
  });
}
