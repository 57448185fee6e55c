/**
 * `projections:rebuild` for tournaments: every stream folded from its first event and its rows
 * written anew (one transaction), by the same `tournamentRowsOf` the append uses.
 */
import { foldTournament, initialTournamentState, type TournamentEvent } from '@shogi/tournament';
import type { Executor } from '../event-rows.js';
import { tournamentRowsOf } from './projection.js';
import { readTournamentStream, writeTournamentRows } from './tournament-events.js';

export async function rebuildTournaments(db: Executor): Promise<number> {
  return db.transaction().execute(async (tx) => {
    await tx.deleteFrom('tournament_pairings').execute();
    await tx.deleteFrom('tournament_players').execute();
    await tx.deleteFrom('tournaments').execute();
    const ids = await tx.selectFrom('tournament_events').select('tournament_id').distinct().execute();
    for (const { tournament_id } of ids) {
      const events = await readTournamentStream(tx, tournament_id);
      const rows = tournamentRowsOf(foldTournament(events as readonly TournamentEvent[], initialTournamentState()));
      if (rows !== null) await writeTournamentRows(tx, { ...rows, removedPlayers: [] });
    }
    return ids.length;
  });
}
