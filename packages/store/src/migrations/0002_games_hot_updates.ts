/**
 * Frozen. The games row is updated twice per move (submission, verdict). An index on
 * updated_at made every update write all the row's index entries; without it, and with
 * free space left in each page, most updates are HOT (heap-only: no index writes).
 */
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('games_status_updated_idx').execute();
  await db.schema.createIndex('games_status_idx').on('games').column('status').execute();
  await sql`alter table games set (fillfactor = 70)`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table games reset (fillfactor)`.execute(db);
  await db.schema.dropIndex('games_status_idx').execute();
  await db.schema.createIndex('games_status_updated_idx').on('games').columns(['status', 'updated_at']).execute();
}
