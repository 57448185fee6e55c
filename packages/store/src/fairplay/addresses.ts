/**
 * Related accounts: each account's keyed address hashes (the gateway hashes, the store never
 * sees an address), and the accounts that share one with a given account.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { FairplayDb } from './schema.js';

/** Records that the account was seen from the address of this hash (first and last time). */
export async function recordAccountAddress(db: FairplayDb, playerId: string, addressHash: string, now: Date) {
  await db
    .insertInto('account_addresses')
    .values({ player_id: playerId, address_hash: addressHash, first_seen: now, last_seen: now })
    .onConflict((oc) => oc.columns(['player_id', 'address_hash']).doUpdateSet({ last_seen: now }))
    .execute();
}

/** The usernames of the other accounts seen from an address this account was seen from. */
export async function relatedAccounts(db: FairplayDb, playerId: string): Promise<string[]> {
  const rows = await sql<{ username: string }>`
    select distinct a.username from account_addresses mine
    join account_addresses other on other.address_hash = mine.address_hash and other.player_id <> mine.player_id
    join accounts a on a.player_id = other.player_id
    where mine.player_id = ${playerId} order by a.username`.execute(db);
  return rows.rows.map((r) => r.username);
}

/** The hashing key kept in the database, made by the first caller (when ADDRESS_HASH_KEY is not set). */
export async function storedAddressKey(db: FairplayDb): Promise<string> {
  await db
    .insertInto('fairplay_address_key')
    .values({ key: randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  const row = await db.selectFrom('fairplay_address_key').select('key').executeTakeFirstOrThrow();
  return row.key;
}
