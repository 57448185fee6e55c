/**
 * Frozen. Fair play (issue 47). `fairplay_assessments`: each screened player's signals and
 * verdict in a rated game, and `fairplay_accounts`: each screened account's aggregate; both are
 * results of the engine's screening, not history (deleting them loses only engine time).
 * `engine_marks`, `fairplay_reports` and `rating_refunds` are projections of the accounts'
 * fair-play streams in the log (reports, marks, unmarks, refunds), written with their events;
 * `rating_refunds` is rebuilt with the ratings.
 */
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('fairplay_assessments')
    .addColumn('game_id', 'text', (c) => c.notNull())
    .addColumn('player_id', 'text', (c) => c.notNull())
    .addColumn('color', 'text', (c) => c.notNull())
    .addColumn('verdict', 'text', (c) => c.notNull())
    .addColumn('rule', 'text')
    .addColumn('speed', 'text', (c) => c.notNull())
    .addColumn('signals', 'jsonb', (c) => c.notNull())
    .addColumn('flags', 'jsonb', (c) => c.notNull())
    .addColumn('depth', 'integer', (c) => c.notNull())
    .addColumn('ended_at', 'timestamptz', (c) => c.notNull())
    .addColumn('assessed_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('fairplay_assessments_pkey', ['game_id', 'player_id'])
    .execute();
  await sql`create index fairplay_assessments_player on fairplay_assessments (player_id, ended_at desc)`.execute(db);

  await db.schema
    .createTable('fairplay_accounts')
    .addColumn('player_id', 'text', (c) => c.primaryKey())
    .addColumn('verdict', 'text', (c) => c.notNull())
    .addColumn('aggregate', 'jsonb', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('engine_marks')
    .addColumn('player_id', 'text', (c) => c.primaryKey())
    .addColumn('marked', 'boolean', (c) => c.notNull())
    .addColumn('by', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('fairplay_reports')
    .addColumn('player_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('reporter_id', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('text', 'text')
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('fairplay_reports_pkey', ['player_id', 'seq'])
    .execute();

  await db.schema
    .createTable('rating_refunds')
    .addColumn('global_position', 'bigint', (c) => c.primaryKey())
    .addColumn('player_id', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('points', 'integer', (c) => c.notNull())
    .addColumn('marked_id', 'text', (c) => c.notNull())
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'rating_refunds',
    'fairplay_reports',
    'engine_marks',
    'fairplay_accounts',
    'fairplay_assessments',
  ])
    await db.schema.dropTable(table).ifExists().execute();
}
