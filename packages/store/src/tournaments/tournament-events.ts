/**
 * Tournament streams in PostgreSQL: the append (events at an expected version, and the
 * projection rows they change, in one transaction) and the reads.
 */
import {
  foldTournament,
  isTournamentEventType,
  type RecordedTournamentEvent,
  type TournamentEvent,
  type TournamentEventStore,
  type TournamentState,
  TournamentVersionConflictError,
} from '@shogi/tournament';
import { sql } from 'kysely';
import { type Executor, UNIQUE_VIOLATION } from '../event-rows.js';
import { type TouchedRows, touchedRows } from './projection.js';

interface TournamentEventRow {
  tournament_id: string;
  seq: number;
  type: string;
  payload: unknown;
  recorded_at: Date;
  global_position: string;
}

function toRecorded(row: TournamentEventRow): RecordedTournamentEvent {
  if (!isTournamentEventType(row.type))
    throw new Error(`unknown event type ${row.type} in tournament ${row.tournament_id}`);
  return {
    type: row.type,
    data: row.payload,
    tournamentId: row.tournament_id,
    seq: row.seq,
    recordedAt: row.recorded_at.toISOString(),
    globalPosition: Number(row.global_position),
  } as RecordedTournamentEvent;
}

/** Writes the given projection rows (upserts) and deletes the removed players' rows. */
export async function writeTournamentRows(db: Executor, rows: TouchedRows) {
  const { tournament, players, pairings, removedPlayers } = rows;
  await db
    .insertInto('tournaments')
    .values(tournament)
    .onConflict((oc) => oc.column('id').doUpdateSet(tournament))
    .execute();
  if (removedPlayers.length > 0)
    await db
      .deleteFrom('tournament_players')
      .where('tournament_id', '=', tournament.id)
      .where('player_id', 'in', removedPlayers)
      .execute();
  for (let i = 0; i < players.length; i += 1000) {
    const chunk = players.slice(i, i + 1000);
    await db
      .insertInto('tournament_players')
      .values(chunk)
      .onConflict((oc) =>
        oc.columns(['tournament_id', 'player_id']).doUpdateSet((eb) => ({
          name: eb.ref('excluded.name'),
          bot: eb.ref('excluded.bot'),
          rating: eb.ref('excluded.rating'),
          paused: eb.ref('excluded.paused'),
          score: eb.ref('excluded.score'),
          tiebreak: eb.ref('excluded.tiebreak'),
          entered: eb.ref('excluded.entered'),
          performance: eb.ref('excluded.performance'),
          fire: eb.ref('excluded.fire'),
          sheet: eb.ref('excluded.sheet'),
          wins: eb.ref('excluded.wins'),
          draws: eb.ref('excluded.draws'),
          losses: eb.ref('excluded.losses'),
        })),
      )
      .execute();
  }
  for (let i = 0; i < pairings.length; i += 1000) {
    const chunk = pairings.slice(i, i + 1000);
    await db
      .insertInto('tournament_pairings')
      .values(chunk)
      .onConflict((oc) =>
        oc.column('game_id').doUpdateSet((eb) => ({
          status: eb.ref('excluded.status'),
          winner: eb.ref('excluded.winner'),
          plies: eb.ref('excluded.plies'),
          berserk_sente: eb.ref('excluded.berserk_sente'),
          berserk_gote: eb.ref('excluded.berserk_gote'),
          forfeit: eb.ref('excluded.forfeit'),
          finished_at: eb.ref('excluded.finished_at'),
        })),
      )
      .execute();
  }
}

/**
 * Appends `events` after `before` (its version the expected one) and updates the projections,
 * in one transaction. A unique violation on (tournament_id, seq), or a stream not at the
 * expected version, is a TournamentVersionConflictError: read again, decide again.
 */
export async function appendTournamentEvents(
  db: Executor,
  tournamentId: string,
  before: TournamentState,
  events: readonly TournamentEvent[],
): Promise<RecordedTournamentEvent[]> {
  if (events.length === 0) return [];
  const expected = before.version;
  try {
    return await db.transaction().execute(async (tx) => {
      const last = await sql<{ seq: number | null }>`
        select max(seq) as seq from tournament_events where tournament_id = ${tournamentId}`.execute(tx);
      if ((last.rows[0]?.seq ?? 0) !== expected) throw new TournamentVersionConflictError(tournamentId, expected);
      const rows = await tx
        .insertInto('tournament_events')
        .values(
          events.map((e, i) => ({
            tournament_id: tournamentId,
            seq: expected + i + 1,
            type: e.type,
            payload: JSON.stringify(e.data),
          })),
        )
        .returning(['tournament_id', 'seq', 'type', 'payload', 'recorded_at', 'global_position'])
        .execute();
      const touched = touchedRows(foldTournament(events, before), events);
      if (touched !== null) await writeTournamentRows(tx, touched);
      return rows.map(toRecorded);
    });
  } catch (e) {
    if ((e as { code?: string }).code === UNIQUE_VIOLATION)
      throw new TournamentVersionConflictError(tournamentId, expected, { cause: e });
    throw e;
  }
}

export async function readTournamentStream(
  db: Executor,
  tournamentId: string,
  afterSeq = 0,
): Promise<RecordedTournamentEvent[]> {
  const rows = await db
    .selectFrom('tournament_events')
    .select(['tournament_id', 'seq', 'type', 'payload', 'recorded_at', 'global_position'])
    .where('tournament_id', '=', tournamentId)
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .execute();
  return rows.map(toRecorded);
}

export const createPgTournamentEventStore = (db: Executor): TournamentEventStore => ({
  append: (id, before, events) => appendTournamentEvents(db, id, before, events),
  readStream: (id, afterSeq = 0) => readTournamentStream(db, id, afterSeq),
});
