/**
 * Frozen. Related accounts for fair play (issue 47): `account_addresses` keeps, per account, a
 * keyed hash (HMAC-SHA256) of each client address it registered or logged in from, never the
 * address itself, so a moderator sees which accounts share one. `fairplay_address_key` holds the
 * key the gateways use when ADDRESS_HASH_KEY is not set: one row, made by the first gateway.
 */
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('account_addresses')
    .addColumn('player_id', 'text', (c) => c.notNull())
    .addColumn('address_hash', 'text', (c) => c.notNull())
    .addColumn('first_seen', 'timestamptz', (c) => c.notNull())
    .addColumn('last_seen', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('account_addresses_pkey', ['player_id', 'address_hash'])
    .execute();
  await sql`create index account_addresses_hash on account_addresses (address_hash)`.execute(db);
  await db.schema
    .createTable('fairplay_address_key')
    .addColumn('id', 'boolean', (c) => c.primaryKey().defaultTo(true).check(sql`id`))
    .addColumn('key', 'text', (c) => c.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('fairplay_address_key').execute();
  await db.schema.dropTable('account_addresses').execute();
}
