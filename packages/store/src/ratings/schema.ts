/** Table types of the ratings projection (migration 0009). Use `db.withTables<RatingTables>()`. */
import type { ColumnType, Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { StatsTables } from '../stats/schema.js';

/** bigint columns: pg returns int8 as a string. */
type Count = ColumnType<string, number | string, number | string>;

export interface RatingsTable {
  player_id: string;
  category: string;
  /** The name in the player's latest rated game. */
  name: string;
  rating: number;
  rd: number;
  volatility: number;
  games: number;
  wins: number;
  losses: number;
  draws: number;
  /** The end of the player's latest rated game in this category (not a wall clock: a rebuild equals live). */
  updated_at: ColumnType<Date, Date | string, Date | string>;
}

export interface RatingHistoryTable {
  game_id: string;
  player_id: string;
  category: string;
  opponent_id: string;
  rating_before: number;
  rd_before: number;
  rating_after: number;
  rd_after: number;
  volatility_after: number;
  at: ColumnType<Date, Date | string, Date | string>;
  global_position: ColumnType<string, number | string, number | string>;
}

export interface RatingBandRollupsTable {
  grain: string;
  day: ColumnType<string, string, string>;
  ruleset: string;
  handicap: string;
  rated: boolean;
  time_category: string;
  /** Lower end of the 100-point band of the two players' average pre-game rating. */
  band: number;
  sente_wins: Count;
  gote_wins: Count;
  draws: Count;
  no_result: Count;
}

export interface PlayerBandResultsTable {
  player_id: string;
  category: string;
  /** Lower end of the 100-point band of the opponent's pre-game rating. */
  opponent_band: number;
  wins: Count;
  losses: Count;
  draws: Count;
}

export interface RatingDiffCountersTable {
  category: string;
  /** The colour of the higher-rated player (sente on a tie). */
  higher_color: 'sente' | 'gote';
  /** Lower end of the bucket of |rating difference| before the game. */
  bucket: number;
  games: Count;
  /** The higher-rated player's score, in half points. */
  score_halves: Count;
  /** The higher-rated player's Glicko expected score, in millionths. */
  expected_micro: Count;
}

export type RatingTables = {
  ratings: RatingsTable;
  rating_history: RatingHistoryTable;
  rating_band_rollups: RatingBandRollupsTable;
  player_band_results: PlayerBandResultsTable;
  rating_diff_counters: RatingDiffCountersTable;
};

export type RatingsDb = Kysely<Database & StatsTables & RatingTables>;

/** The tables a rebuild truncates with the statistics ones. */
export const DERIVED_RATING_TABLES = [
  'ratings',
  'rating_history',
  'rating_band_rollups',
  'player_band_results',
  'rating_diff_counters',
  // fair play's refunds applied, rebuilt with the ratings they raised (migration 0018)
  'rating_refunds',
] as const;

/** Width of a rating band (results by band, a player's results by opponent band). */
export const RATING_BAND = 100;
/** Width of a bucket of rating difference (score vs expectation). */
export const DIFF_BUCKET = 50;
/** Differences at or above this fall in its bucket. */
export const DIFF_CAP = 800;
