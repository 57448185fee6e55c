/** Reads of the tournament projections, for the routes and the director. */
import { sql } from 'kysely';
import type { Executor } from '../event-rows.js';
import type { RatingTables } from '../ratings/index.js';

export async function tournamentsByStatus(db: Executor, finishedLimit = 20) {
  const base = db.selectFrom('tournaments').selectAll();
  const [created, started, finished] = await Promise.all([
    base.where('status', '=', 'created').orderBy('starts_at').limit(100).execute(),
    base.where('status', '=', 'started').orderBy('starts_at').limit(100).execute(),
    base.where('status', '=', 'finished').orderBy('finished_at', 'desc').limit(finishedLimit).execute(),
  ]);
  return { created, started, finished };
}

export const tournamentRow = (db: Executor, id: string) =>
  db.selectFrom('tournaments').selectAll().where('id', '=', id).executeTakeFirst();

/** The ids of the tournaments not finished: the director's work. */
export async function activeTournamentIds(db: Executor): Promise<string[]> {
  const rows = await db.selectFrom('tournaments').select('id').where('status', 'in', ['created', 'started']).execute();
  return rows.map((r) => r.id);
}

/**
 * Standings by rank, `offset` rows in, at most `limit`, each with its rank: the rows hold the
 * ranking's keys (migration 0019), so the rank is the row's place in their order, read off the
 * index `tournament_players_standing_idx`.
 */
export async function standingRows(db: Executor, id: string, offset: number, limit: number) {
  const rows = await db
    .selectFrom('tournament_players')
    .selectAll()
    .where('tournament_id', '=', id)
    .orderBy('score', 'desc')
    .orderBy('tiebreak', 'desc')
    .orderBy('entered')
    .offset(offset)
    .limit(limit)
    .execute();
  return rows.map((r, i) => ({ ...r, rank: offset + i + 1 }));
}

/** A player's rank in the standings (those ahead of them, plus one); null when not in it. */
export async function standingRank(db: Executor, id: string, playerId: string): Promise<number | null> {
  const { rows } = await sql<{ rank: string }>`
    select 1 + (
      select count(*) from tournament_players o
      where o.tournament_id = me.tournament_id
        and (o.score, o.tiebreak, -o.entered) > (me.score, me.tiebreak, -me.entered)
    ) as rank
    from tournament_players me where me.tournament_id = ${id} and me.player_id = ${playerId}`.execute(db);
  return rows[0] === undefined ? null : Number(rows[0].rank);
}

/** A tournament's games with their players' names and endings, in the order paired. */
export const tournamentGameRows = (db: Executor, id: string) =>
  db
    .selectFrom('tournament_pairings as p')
    .leftJoin('games as g', 'g.id', 'p.game_id')
    .select([
      'p.game_id',
      'p.round',
      'p.sente_id',
      'p.gote_id',
      'p.status',
      'p.winner',
      'p.plies',
      'p.berserk_sente',
      'p.berserk_gote',
      'p.forfeit',
      'p.paired_at',
      'p.finished_at',
      'g.sente_name',
      'g.gote_name',
      'g.end_reason',
      'g.sfen',
    ])
    .where('p.tournament_id', '=', id)
    .orderBy('p.paired_at')
    .orderBy('p.game_id')
    .execute();

/** The endings of the given games that have ended (the director scores them). */
export async function endedGames(db: Executor, gameIds: readonly string[]) {
  if (gameIds.length === 0) return [];
  const rows = await db
    .selectFrom('games')
    .select((eb) => [
      'id',
      'winner',
      'ply',
      'end_reason',
      'side_to_move',
      // the game's log says who berserked (Berserked events, one partition each)
      eb
        .exists(
          eb
            .selectFrom('game_events as e')
            .select('e.seq')
            .whereRef('e.game_id', '=', 'games.id')
            .where('e.type', '=', 'Berserked')
            .where(sql<boolean>`e.payload->>'color' = 'sente'`),
        )
        .as('berserk_sente'),
      eb
        .exists(
          eb
            .selectFrom('game_events as e')
            .select('e.seq')
            .whereRef('e.game_id', '=', 'games.id')
            .where('e.type', '=', 'Berserked')
            .where(sql<boolean>`e.payload->>'color' = 'gote'`),
        )
        .as('berserk_gote'),
    ])
    .where('id', 'in', gameIds)
    .where('status', '=', 'ended')
    .execute();
  return rows.map((r) => ({ ...r, berserk_sente: r.berserk_sente === true, berserk_gote: r.berserk_gote === true }));
}

/** Which of the given games exist (a pairing whose game a crash left uncreated does not). */
export async function existingGames(db: Executor, gameIds: readonly string[]): Promise<Set<string>> {
  if (gameIds.length === 0) return new Set();
  const rows = await db.selectFrom('games').select('id').where('id', 'in', gameIds).execute();
  return new Set(rows.map((r) => r.id));
}

/** The tournament of a game, or null. */
export async function tournamentOfGame(db: Executor, gameId: string): Promise<string | null> {
  const row = await db
    .selectFrom('tournament_pairings')
    .select('tournament_id')
    .where('game_id', '=', gameId)
    .executeTakeFirst();
  return row?.tournament_id ?? null;
}

/** A player's rating and rated games in a category; a player without one is at 1500 with none. */
export async function ratingIn(db: Executor, playerId: string, category: string) {
  const row = await db
    .withTables<RatingTables>()
    .selectFrom('ratings')
    .select([sql<number>`round(rating)::int`.as('rating'), 'games'])
    .where('player_id', '=', playerId)
    .where('category', '=', category)
    .executeTakeFirst();
  return { rating: row?.rating ?? 1500, games: row?.games ?? 0 };
}

/**
 * The players a Swiss's imported TRF names, by lower-cased name: an account's username first,
 * else a player's name only one player has; `ambiguous` where several share it, absent where
 * none has it. Two queries whatever the number of names.
 */
export async function playersNamedIn(
  db: Executor,
  names: readonly string[],
): Promise<Map<string, { id: string; name: string } | 'ambiguous'>> {
  const found = new Map<string, { id: string; name: string } | 'ambiguous'>();
  if (names.length === 0) return found;
  const lower = [...new Set(names.map((n) => n.toLowerCase()))];
  const accounts = await db
    .selectFrom('accounts')
    .innerJoin('players', 'players.id', 'accounts.player_id')
    .select(['players.id', 'players.name', 'accounts.username'])
    .where(sql<string>`lower(accounts.username)`, 'in', lower)
    .execute();
  for (const a of accounts) found.set(a.username.toLowerCase(), { id: a.id, name: a.name });
  const rest = [...new Set(names.filter((n) => !found.has(n.toLowerCase())))];
  if (rest.length === 0) return found;
  const players = await db.selectFrom('players').select(['id', 'name']).where('name', 'in', rest).execute();
  for (const p of players) {
    const key = p.name.toLowerCase();
    found.set(key, found.has(key) ? 'ambiguous' : { id: p.id, name: p.name });
  }
  return found;
}

/**
 * The tournaments an engine-marked player is taken out of: those not finished, and those
 * finished since `since` (issue 47: the last 14 days' results), where the player still stands.
 */
export async function tournamentsToEjectFrom(db: Executor, playerId: string, since: Date): Promise<string[]> {
  const rows = await db
    .selectFrom('tournament_players as p')
    .innerJoin('tournaments as t', 't.id', 'p.tournament_id')
    .select('t.id')
    .where('p.player_id', '=', playerId)
    .where((eb) => eb.or([eb('t.status', 'in', ['created', 'started']), eb('t.finished_at', '>=', since)]))
    .execute();
  return rows.map((r) => r.id);
}
