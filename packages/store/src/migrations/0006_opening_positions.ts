/**
 * Frozen. The opening explorer by position: `opening_counters.position` is the position
 * before `next` (SFEN board, side and hands, without the move number), so a position
 * reached by different move orders sums over all of them. Rows counted before this
 * migration keep '' until `npm run projections:rebuild`.
 */
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('opening_counters')
    .addColumn('position', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await sql`create index opening_counters_position on opening_counters (position)`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('opening_counters').dropColumn('position').execute();
}
