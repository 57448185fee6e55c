/**
 * Frozen. The ratings projection, folded from the log by the statistics projector in the
 * same transaction as `finished_games` and its checkpoint:
 * - `ratings`: each player's current Glicko-2 rating per category, with the name seen in
 *   their latest rated game (the leaderboard reads one index and nothing else);
 * - `rating_history`: one row per player per rated game; its primary key (game_id,
 *   player_id) is what makes a game rated at most once;
 * - pre-aggregated counters of rated games for the rating statistics: results by band of
 *   the players' average pre-game rating (periods as in 0005), a player's results by the
 *   opponent's band, and observed vs expected scores by bucket of rating difference.
 */
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ratings')
    .addColumn('player_id', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('rating', 'double precision', (c) => c.notNull())
    .addColumn('rd', 'double precision', (c) => c.notNull())
    .addColumn('volatility', 'double precision', (c) => c.notNull())
    .addColumn('games', 'integer', (c) => c.notNull())
    .addColumn('wins', 'integer', (c) => c.notNull())
    .addColumn('losses', 'integer', (c) => c.notNull())
    .addColumn('draws', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('ratings_pk', ['player_id', 'category'])
    .execute();
  // the leaderboard: top of a category, walked down past the provisional ones
  await sql`create index ratings_leaderboard on ratings (category, rating desc, player_id) include (rd)`.execute(db);

  await db.schema
    .createTable('rating_history')
    .addColumn('game_id', 'text', (c) => c.notNull())
    .addColumn('player_id', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('opponent_id', 'text', (c) => c.notNull())
    .addColumn('rating_before', 'double precision', (c) => c.notNull())
    .addColumn('rd_before', 'double precision', (c) => c.notNull())
    .addColumn('rating_after', 'double precision', (c) => c.notNull())
    .addColumn('rd_after', 'double precision', (c) => c.notNull())
    .addColumn('volatility_after', 'double precision', (c) => c.notNull())
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .addColumn('global_position', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('rating_history_pk', ['game_id', 'player_id'])
    .execute();
  await sql`create index rating_history_player on rating_history (player_id, category, global_position)`.execute(db);

  await db.schema
    .createTable('rating_band_rollups')
    .addColumn('grain', 'text', (c) => c.notNull())
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('ruleset', 'text', (c) => c.notNull())
    .addColumn('handicap', 'text', (c) => c.notNull())
    .addColumn('rated', 'boolean', (c) => c.notNull())
    .addColumn('time_category', 'text', (c) => c.notNull())
    .addColumn('band', 'integer', (c) => c.notNull())
    .addColumn('sente_wins', 'bigint', (c) => c.notNull())
    .addColumn('gote_wins', 'bigint', (c) => c.notNull())
    .addColumn('draws', 'bigint', (c) => c.notNull())
    .addColumn('no_result', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('rating_band_rollups_pk', [
      'grain',
      'day',
      'ruleset',
      'handicap',
      'rated',
      'time_category',
      'band',
    ])
    .execute();

  await db.schema
    .createTable('player_band_results')
    .addColumn('player_id', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('opponent_band', 'integer', (c) => c.notNull())
    .addColumn('wins', 'bigint', (c) => c.notNull())
    .addColumn('losses', 'bigint', (c) => c.notNull())
    .addColumn('draws', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('player_band_results_pk', ['player_id', 'category', 'opponent_band'])
    .execute();

  await db.schema
    .createTable('rating_diff_counters')
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('higher_color', 'text', (c) => c.notNull())
    .addColumn('bucket', 'integer', (c) => c.notNull())
    .addColumn('games', 'bigint', (c) => c.notNull())
    // integers, so sums do not depend on the order they are added in (a rebuild equals live):
    // the higher-rated side's score in half points, its Glicko expectation in millionths
    .addColumn('score_halves', 'bigint', (c) => c.notNull())
    .addColumn('expected_micro', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('rating_diff_counters_pk', ['category', 'higher_color', 'bucket'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['rating_diff_counters', 'player_band_results', 'rating_band_rollups', 'rating_history', 'ratings'])
    await db.schema.dropTable(t).execute();
}
