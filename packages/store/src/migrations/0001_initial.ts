/** Frozen: never edit a migration that has shipped; add a new one. Imports nothing from the app. */
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('game_events')
    .addColumn('game_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull().check(sql`seq > 0`))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('recorded_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('global_position', 'bigserial', (c) => c.notNull().unique())
    .addPrimaryKeyConstraint('game_events_pkey', ['game_id', 'seq'])
    .execute();

  await db.schema
    .createTable('games')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('sente_id', 'text', (c) => c.notNull())
    .addColumn('sente_name', 'text', (c) => c.notNull())
    .addColumn('gote_id', 'text', (c) => c.notNull())
    .addColumn('gote_name', 'text', (c) => c.notNull())
    .addColumn('ruleset', 'text', (c) => c.notNull())
    .addColumn('handicap', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('side_to_move', 'text', (c) => c.notNull())
    .addColumn('ply', 'integer', (c) => c.notNull())
    .addColumn('last_seq', 'integer', (c) => c.notNull())
    .addColumn('result', 'text')
    .addColumn('winner', 'text')
    .addColumn('end_reason', 'text')
    .addColumn('sfen', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('games_status_updated_idx').on('games').columns(['status', 'updated_at']).execute();
  await db.schema.createIndex('games_sente_idx').on('games').column('sente_id').execute();
  await db.schema.createIndex('games_gote_idx').on('games').column('gote_id').execute();

  await db.schema
    .createTable('players')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('players').execute();
  await db.schema.dropTable('games').execute();
  await db.schema.dropTable('game_events').execute();
}
