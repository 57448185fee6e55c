/**
 * Frozen. seeks.address_key: the client address an open seek was posted from, as the
 * per-address limit of open seeks counts it (an IPv4 address, or an IPv6 /64 prefix). It is
 * set only while the seek is open and cleared when it closes, so no address outlives its
 * seek. Null for the seeks of before: they count for no address, and expire within minutes.
 */
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('seeks').addColumn('address_key', 'text').execute();
  await sql`create index seeks_open_address on seeks (address_key) where status = 'open'`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('seeks_open_address').execute();
  await db.schema.alterTable('seeks').dropColumn('address_key').execute();
}
