/**
 * What the lobby serializes per player: whoever starts a game for a player (a seek pairing,
 * a challenge or rematch accepted) holds that player's lock until its transaction ends, so
 * two of them cannot both see the player free and both start a game.
 *
 * Lock order, the same everywhere, so waits never form a cycle: a seeker's quota locks, then
 * a seek pool (or a challenge row), then player locks in id order, then the players' seek
 * rows. Nothing that holds a player lock waits for a quota, pool or challenge lock, and a
 * seek row is locked only by a holder of its player's lock (or by a single statement that
 * takes nothing else: a cancel, the expiry sweep).
 */
import { sql } from 'kysely';
import type { LobbyDb } from './schema.js';

/** Takes the players' locks in id order until the transaction (or the savepoint of `attempt`) ends. */
export async function lockPlayers(trx: LobbyDb, playerIds: readonly string[]): Promise<void> {
  for (const id of [...new Set(playerIds)].sort())
    await sql`select pg_advisory_xact_lock(hashtextextended(${`player:${id}`}, 0))`.execute(trx);
}

/**
 * The oldest ongoing game of the player whose time control is of one of `kinds`, or null.
 * The kind is read from the game's GameCreated event (seq 1): a game created before time
 * controls existed has none there, and is unlimited.
 */
export async function ongoingGameOf(db: LobbyDb, playerId: string, kinds: readonly string[]): Promise<string | null> {
  const { rows } = await sql<{ id: string }>`
    select g.id from games g
    join game_events e on e.game_id = g.id and e.seq = 1 and e.type = 'GameCreated'
    where g.status = 'ongoing' and (g.sente_id = ${playerId} or g.gote_id = ${playerId})
      and e.payload->'timeControl'->>'kind' = any(${[...kinds]}::text[])
    order by g.created_at
    limit 1`.execute(db);
  return rows[0]?.id ?? null;
}

/**
 * Runs `fn` inside a savepoint; when it answers undefined, all it did is undone, its locks
 * included (rolling back to a savepoint releases the locks taken since), so the caller can
 * lock another set of players next and still take player locks in id order only. When `fn`
 * throws, the transaction fails as a whole.
 */
export async function attempt<T>(trx: LobbyDb, fn: () => Promise<T | undefined>): Promise<T | undefined> {
  await sql`savepoint lobby_attempt`.execute(trx);
  const result = await fn();
  if (result === undefined) await sql`rollback to savepoint lobby_attempt`.execute(trx);
  await sql`release savepoint lobby_attempt`.execute(trx);
  return result;
}

/**
 * The rated games the two players started together (either colour) since `since`, aborted
 * ones included: the daily cap on one pair's rated games counts games started, read from
 * each game's GameCreated (seq 1), as the lobby's start path writes it before it commits.
 */
export async function ratedGamesBetween(db: LobbyDb, a: string, b: string, since: Date): Promise<number> {
  const { rows } = await sql<{ n: string }>`
    select count(*) as n from games g
    join game_events e on e.game_id = g.id and e.seq = 1 and e.type = 'GameCreated'
    where ((g.sente_id = ${a} and g.gote_id = ${b}) or (g.sente_id = ${b} and g.gote_id = ${a}))
      and g.created_at >= ${since}
      and (e.payload->>'rated')::boolean`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** Whether a moderator has marked the player for engine use (engine_marks, migration 0018): the lobby pairs marked with marked. */
export async function isEngineMarkedPlayer(db: LobbyDb, playerId: string): Promise<boolean> {
  const r = await sql<{ marked: boolean }>`select marked from engine_marks where player_id = ${playerId}`.execute(db);
  return r.rows[0]?.marked === true;
}
