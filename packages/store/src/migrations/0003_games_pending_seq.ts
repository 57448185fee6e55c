/**
 * Frozen. games.pending_seq: the latest submission still without a verdict (null when
 * none), so a sweeper can re-enqueue validations whose job was lost (a gateway that died
 * between recording a move and enqueueing its job).
 */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('games').addColumn('pending_seq', 'integer').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('games').dropColumn('pending_seq').execute();
}
