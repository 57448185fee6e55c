/**
 * Accounts' takeback preferences (migration 0016). A guest, or an id no account has, takes
 * takebacks always, the default.
 */
import { DEFAULT_TAKEBACK_PREFERENCE, TAKEBACK_PREFERENCES, type TakebackPreference } from '@shogi/game';
import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.js';

const isPreference = (s: string): s is TakebackPreference => (TAKEBACK_PREFERENCES as readonly string[]).includes(s);

/** Each player's preference, in one query; the default for a player without an account. */
export async function takebackPreferences<DB extends Database>(
  db: Kysely<DB>,
  playerIds: readonly string[],
): Promise<Map<string, TakebackPreference>> {
  const out = new Map<string, TakebackPreference>(playerIds.map((id) => [id, DEFAULT_TAKEBACK_PREFERENCE]));
  if (playerIds.length === 0) return out;
  const { rows } = await sql<{ player_id: string; takeback: string }>`
    select player_id, takeback from accounts where player_id = any(${[...playerIds]}::text[])`.execute(db);
  for (const r of rows) if (isPreference(r.takeback)) out.set(r.player_id, r.takeback);
  return out;
}

/** Sets an account's preference; false when the player has no account. */
export async function setTakebackPreference<DB extends Database>(
  db: Kysely<DB>,
  playerId: string,
  preference: TakebackPreference,
): Promise<boolean> {
  const r = await sql`update accounts set takeback = ${preference} where player_id = ${playerId}`.execute(db);
  return (r.numAffectedRows ?? 0n) > 0n;
}
