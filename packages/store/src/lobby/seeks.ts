/**
 * Seeks: repository functions over `seeks`, each taking the db or a transaction first.
 * Pairing is serialized per pool (the terms a seek pairs on) by a transaction-scoped
 * advisory lock, so two seeks posted at once in one pool can neither both take the same
 * open seek nor both miss each other; the chosen seek is also locked `for update`, which
 * is what a concurrent cancel waits on. Across pools, the players' locks (players.ts)
 * keep two pairings from both taking one player.
 */
import { sql } from 'kysely';
import type { LobbyDb, SeekRow } from './schema.js';

export type NewSeek = Omit<SeekRow, 'time_control' | 'status' | 'game_id' | 'side'> & {
  readonly time_control: unknown;
};

export async function insertSeek(
  db: LobbyDb,
  seek: NewSeek,
  paired?: { readonly gameId: string; readonly side: string },
): Promise<SeekRow> {
  return db
    .insertInto('seeks')
    .values({
      ...seek,
      time_control: JSON.stringify(seek.time_control),
      status: paired ? 'paired' : 'open',
      game_id: paired?.gameId ?? null,
      side: paired?.side ?? null,
      // kept only while the seek is open: the limit counts open seeks, and nothing else needs it
      address_key: paired ? null : seek.address_key,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function getSeek(db: LobbyDb, id: string): Promise<SeekRow | undefined> {
  return db.selectFrom('seeks').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Takes the pool's advisory lock until the transaction ends. */
export async function lockSeekPool(trx: LobbyDb, poolKey: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`seeks:${poolKey}`}, 0))`.execute(trx);
}

/** Open seeks of a pool by other players, oldest first (the caller ranks them). */
export async function openSeeksInPool(
  db: LobbyDb,
  poolKey: string,
  excludingPlayer: string,
  now: Date,
  limit = 200,
): Promise<SeekRow[]> {
  return db
    .selectFrom('seeks')
    .selectAll()
    .where('status', '=', 'open')
    .where('pool_key', '=', poolKey)
    .where('expires_at', '>', now)
    .where('player_id', '<>', excludingPlayer)
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

/** Locks an open seek for pairing; undefined when it was taken, cancelled or expired meanwhile. */
export async function lockOpenSeek(trx: LobbyDb, id: string, now: Date): Promise<SeekRow | undefined> {
  return trx
    .selectFrom('seeks')
    .selectAll()
    .where('id', '=', id)
    .where('status', '=', 'open')
    .where('expires_at', '>', now)
    .forUpdate()
    .executeTakeFirst();
}

export async function markSeekPaired(trx: LobbyDb, id: string, gameId: string, side: string): Promise<void> {
  await trx
    .updateTable('seeks')
    .set({ status: 'paired', game_id: gameId, side, address_key: null })
    .where('id', '=', id)
    .execute();
}

/** Cancels an open seek; the row as it is afterwards (undefined: no such seek). */
export async function cancelSeek(db: LobbyDb, id: string, now: Date): Promise<SeekRow | undefined> {
  const cancelled = await db
    .updateTable('seeks')
    .set({ status: 'cancelled', address_key: null })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .where('expires_at', '>', now)
    .returningAll()
    .executeTakeFirst();
  return cancelled ?? getSeek(db, id);
}

/** How many open seeks `GET /api/seeks` considers: a bound on its work whatever the flood. */
export const OPEN_SEEKS_SCANNED = 2_000;

/**
 * The open seeks to show, at most `limit`: every player's oldest first (oldest first among
 * them), then every player's second, and so on, so a player with many seeks cannot push
 * other players' out of the list. Of the oldest OPEN_SEEKS_SCANNED open seeks.
 */
export async function listOpenSeeks(db: LobbyDb, now: Date, limit = 200): Promise<SeekRow[]> {
  const oldest = db
    .selectFrom('seeks')
    .selectAll()
    .where('status', '=', 'open')
    .where('expires_at', '>', now)
    .orderBy('created_at')
    .limit(OPEN_SEEKS_SCANNED)
    .as('oldest');
  const ranked = db
    .selectFrom(oldest)
    .selectAll()
    .select(sql<number>`row_number() over (partition by player_id order by created_at, id)`.as('turn'))
    .as('ranked');
  const rows = await db
    .selectFrom(ranked)
    .selectAll()
    .orderBy('turn')
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(({ turn: _, ...row }) => row);
}

export async function countOpenSeeks(db: LobbyDb, playerId: string, now: Date): Promise<number> {
  const row = await db
    .selectFrom('seeks')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('player_id', '=', playerId)
    .where('status', '=', 'open')
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Open seeks posted from one client address (its key), for the per-address limit. */
export async function countOpenSeeksFrom(db: LobbyDb, addressKey: string, now: Date): Promise<number> {
  const row = await db
    .selectFrom('seeks')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('address_key', '=', addressKey)
    .where('status', '=', 'open')
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Withdraws the open seeks of players a game was just started for, in the transaction that
 * started it and under their player locks (players.ts), so no pairing elsewhere can take one
 * of them meanwhile. `kinds`: only seeks with a time control of these kinds. Seeks already
 * past their time are left to the expiry sweep.
 */
export async function withdrawOpenSeeks(
  trx: LobbyDb,
  playerIds: readonly string[],
  now: Date,
  kinds?: readonly string[],
): Promise<number> {
  if (playerIds.length === 0) return 0;
  let query = trx
    .updateTable('seeks')
    .set({ status: 'cancelled', address_key: null })
    .where('status', '=', 'open')
    .where('player_id', 'in', playerIds)
    .where('expires_at', '>', now);
  if (kinds !== undefined) query = query.where(sql<boolean>`time_control->>'kind' = any(${[...kinds]}::text[])`);
  const rows = await query.returning('id').execute();
  return rows.length;
}

/**
 * Marks seeks and challenges past their time as expired. Expiry is already read at query
 * time; this only keeps the open-seek index small. Any gateway may run it, at once.
 */
export async function expireLobby(db: LobbyDb, now: Date): Promise<{ seeks: number; challenges: number }> {
  // rows a pairing has locked are skipped (it is about to close them, or they are marked next
  // time): this statement then never waits on a pairing, so it never closes a lock cycle with one
  const seeks = await db
    .updateTable('seeks')
    .set({ status: 'expired', address_key: null })
    .where('status', '=', 'open')
    .where(
      'id',
      'in',
      db
        .selectFrom('seeks')
        .select('id')
        .where('status', '=', 'open')
        .where('expires_at', '<=', now)
        .forUpdate()
        .skipLocked(),
    )
    .executeTakeFirst();
  const challenges = await db
    .updateTable('challenges')
    .set({ status: 'expired' })
    .where('status', '=', 'pending')
    .where('expires_at', '<=', now)
    .executeTakeFirst();
  return { seeks: Number(seeks.numUpdatedRows), challenges: Number(challenges.numUpdatedRows) };
}
