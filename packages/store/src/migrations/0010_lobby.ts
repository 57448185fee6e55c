/**
 * Frozen. The lobby: open seeks and challenges (a rematch offer is a challenge with
 * `rematch_of`). Rows are state, not history: the games they create are in the log.
 * Expiry is by `expires_at`, read at query time, so no sweeper is needed for correctness.
 * `pool_key` is the canonical text of the terms a seek pairs on (time control, rated,
 * ruleset, handicap), so candidates are found by one index and pairing in a pool can be
 * serialized by one advisory lock.
 */
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('seeks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('player_id', 'text', (c) => c.notNull())
    .addColumn('player_name', 'text', (c) => c.notNull())
    .addColumn('rating', 'integer', (c) => c.notNull())
    .addColumn('pool_key', 'text', (c) => c.notNull())
    .addColumn('time_control', 'jsonb', (c) => c.notNull())
    .addColumn('rated', 'boolean', (c) => c.notNull())
    .addColumn('ruleset', 'text', (c) => c.notNull())
    .addColumn('handicap', 'text')
    .addColumn('color', 'text', (c) => c.notNull())
    .addColumn('rating_min', 'integer')
    .addColumn('rating_max', 'integer')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('game_id', 'text')
    .addColumn('side', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create index seeks_open_pool on seeks (pool_key, created_at) where status = 'open'`.execute(db);
  await sql`create index seeks_open_created on seeks (created_at) where status = 'open'`.execute(db);
  await sql`create index seeks_player on seeks (player_id, status)`.execute(db);

  await db.schema
    .createTable('challenges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('challenger_id', 'text', (c) => c.notNull())
    .addColumn('challenger_name', 'text', (c) => c.notNull())
    .addColumn('opponent_id', 'text', (c) => c.notNull())
    .addColumn('opponent_name', 'text', (c) => c.notNull())
    .addColumn('time_control', 'jsonb', (c) => c.notNull())
    .addColumn('rated', 'boolean', (c) => c.notNull())
    .addColumn('ruleset', 'text', (c) => c.notNull())
    .addColumn('handicap', 'text')
    /** a rematch of a game started from a custom position starts from it again */
    .addColumn('sfen', 'text')
    .addColumn('color', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('game_id', 'text')
    .addColumn('rematch_of', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create index challenges_challenger on challenges (challenger_id, created_at desc)`.execute(db);
  await sql`create index challenges_opponent on challenges (opponent_id, created_at desc)`.execute(db);
  await sql`create index challenges_rematch on challenges (rematch_of) where rematch_of is not null`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('challenges').execute();
  await db.schema.dropTable('seeks').execute();
}
