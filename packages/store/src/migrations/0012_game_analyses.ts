/**
 * Frozen. Game analyses: one row per game and engine setting (`setting`, the engine's name
 * and search depth as one key), and the engine's verdict on each position of the game. These
 * are results, not history: the log does not hold them, deleting them loses only engine time,
 * and a new request computes them again. Scores are kept as the engine wrote them, from the
 * side to move (`cp 120`, `mate -3`); judgments and the best move are derived when read, so
 * the judgment thresholds can change without running the engine again.
 */
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('game_analyses')
    .addColumn('game_id', 'text', (c) => c.notNull())
    .addColumn('setting', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('engine', 'jsonb', (c) => c.notNull())
    .addColumn('first_side', 'text', (c) => c.notNull())
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('error', 'text')
    .addPrimaryKeyConstraint('game_analyses_pkey', ['game_id', 'setting'])
    .execute();

  await db.schema
    .createTable('game_analysis_plies')
    .addColumn('game_id', 'text', (c) => c.notNull())
    .addColumn('setting', 'text', (c) => c.notNull())
    .addColumn('ply', 'integer', (c) => c.notNull())
    .addColumn('score', 'text', (c) => c.notNull())
    .addColumn('pv', sql`text[]`, (c) => c.notNull())
    .addPrimaryKeyConstraint('game_analysis_plies_pkey', ['game_id', 'setting', 'ply'])
    .addForeignKeyConstraint(
      'game_analysis_plies_analysis',
      ['game_id', 'setting'],
      'game_analyses',
      ['game_id', 'setting'],
      (c) => c.onDelete('cascade'),
    )
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('game_analysis_plies').execute();
  await db.schema.dropTable('game_analyses').execute();
}
