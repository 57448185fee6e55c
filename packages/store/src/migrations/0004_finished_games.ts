/**
 * Frozen. The statistics projections: `finished_games` (one row per ended game), the
 * pre-aggregated counters the statistics API sums (never a scan of the log), the
 * `imported_games` side table of record imports, and `projection_checkpoints` (the global
 * position each checkpointed projector has applied, updated in the same transaction).
 * Counter keys use '' for "none" (a primary key column cannot be null).
 */
import { type CreateTableBuilder, type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('projection_checkpoints')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('position', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('imported_games')
    .addColumn('game_id', 'text', (c) => c.primaryKey())
    .addColumn('source_file', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull().unique())
    .addColumn('record_ending', 'text')
    .addColumn('end_reason', 'text', (c) => c.notNull())
    .addColumn('imported_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('finished_games')
    .addColumn('game_id', 'text', (c) => c.primaryKey())
    .addColumn('sente_id', 'text', (c) => c.notNull())
    .addColumn('sente_name', 'text', (c) => c.notNull())
    .addColumn('gote_id', 'text', (c) => c.notNull())
    .addColumn('gote_name', 'text', (c) => c.notNull())
    .addColumn('ruleset', 'text', (c) => c.notNull())
    .addColumn('handicap', 'text')
    .addColumn('initial_sfen', 'text', (c) => c.notNull())
    .addColumn('rated', 'boolean', (c) => c.notNull())
    .addColumn('time_category', 'text')
    .addColumn('sente_rating_before', 'integer')
    .addColumn('sente_rating_after', 'integer')
    .addColumn('gote_rating_before', 'integer')
    .addColumn('gote_rating_after', 'integer')
    // 'sente' | 'gote' | 'draw' | 'none' (no result: aborted, interrupted)
    .addColumn('result', 'text', (c) => c.notNull())
    .addColumn('end_reason', 'text', (c) => c.notNull())
    .addColumn('plies', 'integer', (c) => c.notNull())
    .addColumn('opening', sql`text[]`, (c) => c.notNull())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ended_at', 'timestamptz', (c) => c.notNull())
    .addColumn('imported', 'boolean', (c) => c.notNull())
    .addColumn('global_position', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('finished_games_sente').on('finished_games').columns(['sente_id', 'ended_at']).execute();
  await db.schema.createIndex('finished_games_gote').on('finished_games').columns(['gote_id', 'ended_at']).execute();
  await db.schema.createIndex('finished_games_ended').on('finished_games').column('ended_at').execute();

  // biome-ignore lint/suspicious/noExplicitAny: frozen migration
  const dims = (t: CreateTableBuilder<string, any>): CreateTableBuilder<string, any> =>
    t
      .addColumn('day', 'date', (c) => c.notNull())
      .addColumn('ruleset', 'text', (c) => c.notNull())
      .addColumn('handicap', 'text', (c) => c.notNull())
      .addColumn('rated', 'boolean', (c) => c.notNull())
      .addColumn('time_category', 'text', (c) => c.notNull());
  const key = ['day', 'ruleset', 'handicap', 'rated', 'time_category'];
  await dims(db.schema.createTable('results_counters'))
    .addColumn('end_reason', 'text', (c) => c.notNull())
    .addColumn('sente_wins', 'bigint', (c) => c.notNull())
    .addColumn('gote_wins', 'bigint', (c) => c.notNull())
    .addColumn('draws', 'bigint', (c) => c.notNull())
    .addColumn('no_result', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('results_counters_pk', [...key, 'end_reason'] as never)
    .execute();
  await dims(db.schema.createTable('length_counters'))
    .addColumn('bucket', 'integer', (c) => c.notNull())
    .addColumn('games', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('length_counters_pk', [...key, 'bucket'] as never)
    .execute();

  await db.schema
    .createTable('player_results')
    .addColumn('player_id', 'text', (c) => c.notNull())
    .addColumn('color', 'text', (c) => c.notNull())
    .addColumn('end_reason', 'text', (c) => c.notNull())
    .addColumn('wins', 'bigint', (c) => c.notNull())
    .addColumn('losses', 'bigint', (c) => c.notNull())
    .addColumn('draws', 'bigint', (c) => c.notNull())
    .addColumn('no_result', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('player_results_pk', ['player_id', 'color', 'end_reason'])
    .execute();

  // the opening explorer: after `prefix` (space-joined USI from the start position of
  // `handicap`), `next` was played in `games` games with these results
  await db.schema
    .createTable('opening_counters')
    .addColumn('handicap', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('next', 'text', (c) => c.notNull())
    .addColumn('games', 'bigint', (c) => c.notNull())
    .addColumn('sente_wins', 'bigint', (c) => c.notNull())
    .addColumn('gote_wins', 'bigint', (c) => c.notNull())
    .addColumn('draws', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('opening_counters_pk', ['handicap', 'prefix', 'next'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'opening_counters',
    'player_results',
    'length_counters',
    'results_counters',
    'finished_games',
    'imported_games',
    'projection_checkpoints',
  ])
    await db.schema.dropTable(t).execute();
}
