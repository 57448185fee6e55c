/**
 * Frozen. games.deadline_at: the last instant the side to move may move (its first-move
 * limit before both first moves), lag allowance not included; null for unlimited and ended
 * games. The worker's sweeper finds ongoing games past it through the partial index (a
 * backstop for flag jobs lost with Redis). The column changes with every accepted move, so
 * those updates are no longer HOT: the price of finding overdue games without a scan.
 */
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('games').addColumn('deadline_at', 'timestamptz').execute();
  await db.schema
    .createIndex('games_ongoing_deadline_idx')
    .on('games')
    .column('deadline_at')
    .where(sql<boolean>`status = 'ongoing' and deadline_at is not null`)
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('games_ongoing_deadline_idx').execute();
  await db.schema.alterTable('games').dropColumn('deadline_at').execute();
}
