/** Players: a name and the hash of their bearer token (the token itself is never stored). */
import type { Db, PlayerRow } from './schema.js';

export async function createPlayer(
  db: Db,
  player: { readonly id: string; readonly name: string; readonly tokenHash: string },
): Promise<PlayerRow> {
  return db
    .insertInto('players')
    .values({ id: player.id, name: player.name, token_hash: player.tokenHash })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findPlayerByTokenHash(db: Db, tokenHash: string): Promise<PlayerRow | undefined> {
  return db.selectFrom('players').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export async function getPlayer(db: Db, id: string): Promise<PlayerRow | undefined> {
  return db.selectFrom('players').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function getPlayers(db: Db, ids: readonly string[]): Promise<PlayerRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('players').selectAll().where('id', 'in', ids).execute();
}

/**
 * Replaces a guest player's token hash, only while it is still `oldHash` (two replacements
 * racing: one wins); false when it no longer was.
 */
export async function replaceGuestTokenHash(
  db: Db,
  playerId: string,
  oldHash: string,
  newHash: string,
): Promise<boolean> {
  const result = await db
    .updateTable('players')
    .set({ token_hash: newHash })
    .where('id', '=', playerId)
    .where('token_hash', '=', oldHash)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * The player with this id, made with this name the first time it is asked for: a player every
 * process shares by a fixed id (the house bots). A stored name is kept as it is.
 */
export async function ensurePlayer(db: Db, player: { readonly id: string; readonly name: string }): Promise<PlayerRow> {
  await db
    .insertInto('players')
    .values({ id: player.id, name: player.name, token_hash: null })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return db.selectFrom('players').selectAll().where('id', '=', player.id).executeTakeFirstOrThrow();
}
