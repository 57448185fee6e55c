/** Challenges and rematch offers: repository functions over `challenges`. */
import { sql } from 'kysely';
import type { ChallengeRow, LobbyDb } from './schema.js';

export type NewChallenge = Omit<ChallengeRow, 'time_control' | 'status' | 'game_id'> & {
  readonly time_control: unknown;
};

export async function insertChallenge(db: LobbyDb, challenge: NewChallenge): Promise<ChallengeRow> {
  return db
    .insertInto('challenges')
    .values({ ...challenge, time_control: JSON.stringify(challenge.time_control), status: 'pending', game_id: null })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function getChallenge(db: LobbyDb, id: string): Promise<ChallengeRow | undefined> {
  return db.selectFrom('challenges').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The challenge, locked until the transaction ends: an accept and a decline (or two accepts) take turns. */
export async function lockChallenge(trx: LobbyDb, id: string): Promise<ChallengeRow | undefined> {
  return trx.selectFrom('challenges').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function closeChallenge(
  trx: LobbyDb,
  id: string,
  status: 'accepted' | 'declined' | 'cancelled',
  gameId: string | null = null,
): Promise<ChallengeRow> {
  return trx
    .updateTable('challenges')
    .set({ status, game_id: gameId })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A player's latest challenges, sent and received, newest first. */
export async function listChallenges(
  db: LobbyDb,
  playerId: string,
  limit = 50,
): Promise<{ incoming: ChallengeRow[]; outgoing: ChallengeRow[] }> {
  const [incoming, outgoing] = await Promise.all([
    db
      .selectFrom('challenges')
      .selectAll()
      .where('opponent_id', '=', playerId)
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute(),
    db
      .selectFrom('challenges')
      .selectAll()
      .where('challenger_id', '=', playerId)
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute(),
  ]);
  return { incoming, outgoing };
}

export async function countPendingChallenges(db: LobbyDb, challengerId: string, now: Date): Promise<number> {
  const row = await db
    .selectFrom('challenges')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('challenger_id', '=', challengerId)
    .where('status', '=', 'pending')
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Serializes rematch offers of one game until the transaction ends (both players may offer at once). */
export async function lockRematches(trx: LobbyDb, gameId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`rematch:${gameId}`}, 0))`.execute(trx);
}

/** The rematch offers of a game that are still live or were accepted, newest first. */
export async function rematchesOf(trx: LobbyDb, gameId: string, now: Date): Promise<ChallengeRow[]> {
  return trx
    .selectFrom('challenges')
    .selectAll()
    .where('rematch_of', '=', gameId)
    .where((eb) =>
      eb.or([eb('status', '=', 'accepted'), eb.and([eb('status', '=', 'pending'), eb('expires_at', '>', now)])]),
    )
    .orderBy('created_at', 'desc')
    .execute();
}
