/**
 * What is shown of a player where lishogi's API shows one (a challenge's players, a game's
 * opponent, the account itself): the username of an account, whether it is a bot, and
 * ratings. A rating's deviation is grown to the time of the read by the idle time since its
 * latest rated game, as the profile shows it (ratings/queries.ts), so `provisional` agrees.
 */
import { isProvisional, type RatingCategory, ratingAt } from '@shogi/ratings';
import { sql } from 'kysely';
import type { Db } from './schema.js';

export interface ShownRating {
  readonly category: RatingCategory;
  /** rounded, as shown */
  readonly rating: number;
  readonly rd: number;
  readonly provisional: boolean;
  readonly games: number;
}

export interface PlayerCard {
  readonly id: string;
  readonly name: string;
  /** null for a guest */
  readonly username: string | null;
  readonly bot: boolean;
  /** in the category asked for; null when the player has no rated game in it */
  readonly rating: ShownRating | null;
}

export interface AccountSummary {
  readonly id: string;
  readonly name: string;
  /** null for a guest */
  readonly username: string | null;
  readonly bot: boolean;
  readonly createdAt: Date;
  /** one per category the player has rated games in */
  readonly ratings: readonly ShownRating[];
}

interface RatingRow {
  readonly category: string;
  readonly rating: number;
  readonly rd: number;
  readonly volatility: number;
  readonly games: number;
  readonly updated_at: Date;
}

const shown = (r: RatingRow, now: Date): ShownRating => {
  const at = ratingAt({ rating: r.rating, deviation: r.rd, volatility: r.volatility }, r.updated_at, now);
  return {
    category: r.category as RatingCategory,
    rating: Math.round(at.rating),
    rd: Math.round(at.deviation),
    provisional: isProvisional(at),
    games: r.games,
  };
};

/** The players of `ids` that exist, with their rating in `category` (none for null: unlimited games). */
export async function playerCards(
  db: Db,
  ids: readonly string[],
  category: RatingCategory | null,
  now: Date,
): Promise<PlayerCard[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql<
    { id: string; name: string; username: string | null; bot: boolean | null } & Partial<RatingRow>
  >`select p.id, p.name, a.username, a.bot,
      r.category, r.rating, r.rd, r.volatility, r.games, r.updated_at
    from players p
    left join accounts a on a.player_id = p.id
    left join ratings r on r.player_id = p.id and r.category = ${category}
    where p.id = any(${[...new Set(ids)]}::text[])`.execute(db);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    username: row.username,
    bot: row.bot === true,
    rating: row.category === undefined || row.category === null ? null : shown(row as RatingRow, now),
  }));
}

/** The player behind a token as its own account page shows it; undefined for an unknown id. */
export async function accountSummary(db: Db, playerId: string, now: Date): Promise<AccountSummary | undefined> {
  const { rows } = await sql<{
    id: string;
    name: string;
    username: string | null;
    bot: boolean | null;
    created_at: Date;
  }>`select p.id, p.name, a.username, a.bot, coalesce(a.created_at, p.created_at) as created_at
    from players p left join accounts a on a.player_id = p.id
    where p.id = ${playerId}`.execute(db);
  const player = rows[0];
  if (player === undefined) return undefined;
  const ratings = await sql<RatingRow>`
    select category, rating, rd, volatility, games, updated_at from ratings
    where player_id = ${playerId} order by category`.execute(db);
  return {
    id: player.id,
    name: player.name,
    username: player.username,
    bot: player.bot === true,
    createdAt: new Date(player.created_at),
    ratings: ratings.rows.map((r) => shown(r, now)),
  };
}

/**
 * Each player's main rating: the category of the most rated games (the latest played on a
 * tie), as the live list shows beside a name. Players with no rated game are absent.
 */
export async function mainRatings(db: Db, ids: readonly string[], now: Date): Promise<Map<string, ShownRating>> {
  if (ids.length === 0) return new Map();
  const { rows } = await sql<RatingRow & { player_id: string }>`
    select distinct on (player_id) player_id, category, rating, rd, volatility, games, updated_at
    from ratings where player_id = any(${[...new Set(ids)]}::text[])
    order by player_id, games desc, updated_at desc`.execute(db);
  return new Map(rows.map((r) => [r.player_id, shown(r, now)]));
}
