/**
 * Frozen. accounts.takeback: the account's takeback preference, lishogi's `takeback`
 * (always, casual games only, never; default always). Guests have none: always.
 */
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('accounts')
    .addColumn('takeback', 'text', (c) =>
      c.notNull().defaultTo('always').check(sql`takeback in ('always', 'casual', 'never')`),
    )
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('accounts').dropColumn('takeback').execute();
}
