/**
 * A player's rating as the lobby sees it: the ratings projection (migration 0009) when
 * it has the player in the category, else the Glicko-2 start, 1500. A database without
 * the table yet (an older schema) reads as "no rating".
 */
import { categoryOf, type TimeControlShape } from '@shogi/ratings';
import { sql } from 'kysely';
import type { Db } from '../schema.js';

export const DEFAULT_RATING = 1500;

/** The player's rating in the category of `timeControl` (packages/ratings' categoryOf); unlimited has none. */
export async function lobbyRating(db: Db, playerId: string, timeControl: TimeControlShape): Promise<number> {
  const category = categoryOf(timeControl);
  if (category === null) return DEFAULT_RATING;
  try {
    const { rows } = await sql<{ rating: number }>`
      select rating from ratings where player_id = ${playerId} and category = ${category}`.execute(db);
    const rating = rows[0]?.rating;
    return rating === undefined ? DEFAULT_RATING : Math.round(Number(rating));
  } catch (err) {
    // 42P01 undefined_table
    if ((err as { code?: unknown }).code === '42P01') return DEFAULT_RATING;
    throw err;
  }
}

/** What a rematch needs of a game that the game view does not show. */
export async function gameSetupOf(db: Db, gameId: string): Promise<{ handicap: string | null } | undefined> {
  return db.selectFrom('games').select('handicap').where('id', '=', gameId).executeTakeFirst();
}

/** Players by exact name (a challenge may name its opponent), at most `limit`. */
export async function playersNamed(db: Db, name: string, limit = 2): Promise<{ id: string; name: string }[]> {
  return db.selectFrom('players').select(['id', 'name']).where('name', '=', name).limit(limit).execute();
}
