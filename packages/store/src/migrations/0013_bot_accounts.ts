/**
 * Frozen. accounts.bot: the account plays as a bot (lishogi's BOT title), through challenges
 * and the Bot API only. An account becomes one for good, and only before it has played a
 * game, so a bot's games are all bot games.
 */
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('accounts')
    .addColumn('bot', 'boolean', (c) => c.notNull().defaultTo(sql`false`))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('accounts').dropColumn('bot').execute();
}
