/**
 * Frozen. Accounts and tokens beside the guest players of 0001:
 * - `accounts`: a player with a username (unique case-insensitively, by an index on its
 *   lower case) and an argon2id password hash (PHC string, parameters inside);
 * - `tokens`: session and personal API tokens, stored only as the SHA-256 of the token,
 *   with their scopes, expiry and revocation time (a revoked row stays, for the list and
 *   for audits; lookups skip it);
 * - `players.token_hash` becomes optional: an account's player has no guest token.
 */
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('players')
    .alterColumn('token_hash', (c) => c.dropNotNull())
    .execute();

  await db.schema
    .createTable('accounts')
    .addColumn('player_id', 'text', (c) => c.primaryKey().references('players.id').onDelete('cascade'))
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('accounts_username_lower_key')
    .on('accounts')
    .unique()
    .expression(sql`lower(username)`)
    .execute();

  await db.schema
    .createTable('tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('player_id', 'text', (c) => c.notNull().references('players.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('session', 'personal')`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('scopes', sql`text[]`, (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('tokens_player_idx').on('tokens').columns(['player_id', 'created_at']).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('tokens').execute();
  await db.schema.dropTable('accounts').execute();
  await sql`delete from players where token_hash is null`.execute(db);
  await db.schema
    .alterTable('players')
    .alterColumn('token_hash', (c) => c.setNotNull())
    .execute();
}
