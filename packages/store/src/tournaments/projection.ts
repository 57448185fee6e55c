/**
 * The tournament projections as a pure function of the folded state: the rows of `tournaments`,
 * `tournament_players` and `tournament_pairings` one state gives. The append writes the rows
 * that changed between the state before and after it; the rebuild writes all rows of each
 * tournament's fold. Both call this, so a rebuilt projection equals the live one.
 */
import { finishesAt, sheetScoresString, standingsOf, type TournamentState } from '@shogi/tournament';
import type { Insertable } from 'kysely';
import type { TournamentPairingsTable, TournamentPlayersTable, TournamentsTable } from '../schema.js';

export type TournamentRow = Insertable<TournamentsTable>;
export type TournamentPlayerRow = Insertable<TournamentPlayersTable>;
export type TournamentPairingRow = Insertable<TournamentPairingsTable>;

export interface TournamentRows {
  readonly tournament: TournamentRow;
  readonly players: readonly TournamentPlayerRow[];
  readonly pairings: readonly TournamentPairingRow[];
}

/** The rows of a created tournament's state; null before its creation. */
export function tournamentRowsOf(state: TournamentState): TournamentRows | null {
  const terms = state.terms;
  if (terms === null || state.createdBy === null || state.status === 'none') return null;
  const standings = standingsOf(state);
  const winner = state.status === 'finished' ? standings[0] : undefined;
  const tournament: TournamentRow = {
    id: state.tournamentId,
    name: terms.name,
    format: terms.format,
    status: state.status,
    created_by: state.createdBy.id,
    created_by_name: state.createdBy.name,
    starts_at: terms.startsAt,
    finishes_at: finishesAt(terms).toISOString(),
    started_at: state.startedAt,
    finished_at: state.finishedAt,
    terminated: state.terminated,
    rated: terms.rated,
    nb_players: state.players.size,
    winner_id: winner !== undefined && winner.score > 0 ? winner.player.id : null,
    terms: JSON.stringify(terms),
    last_seq: state.version,
  };
  const players = standings.map(
    (s): TournamentPlayerRow => ({
      tournament_id: state.tournamentId,
      player_id: s.player.id,
      name: s.player.name,
      bot: s.player.bot,
      rating: s.player.rating,
      paused: s.player.paused,
      rank: s.rank,
      score: s.score,
      performance: s.performance,
      fire: s.sheet.fire,
      sheet: sheetScoresString(s.sheet),
      wins: s.wins,
      draws: s.draws,
      losses: s.losses,
    }),
  );
  const pairings = [...state.pairings.values()].map(
    (p): TournamentPairingRow => ({
      game_id: p.gameId,
      tournament_id: state.tournamentId,
      round: p.round ?? null,
      sente_id: p.sente,
      gote_id: p.gote,
      status: p.result === undefined ? 'playing' : 'finished',
      winner: p.result?.winner ?? null,
      plies: p.result?.plies ?? null,
      berserk_sente: p.berserk.sente,
      berserk_gote: p.berserk.gote,
      forfeit: p.result?.forfeit ?? false,
      paired_at: p.pairedAt,
      finished_at: p.result?.at ?? null,
    }),
  );
  return { tournament, players, pairings };
}

/** The rows of `after` that differ from `before`'s (by value), and the players no longer in it. */
export function changedRows(before: TournamentRows | null, after: TournamentRows) {
  const key = (r: object) => JSON.stringify(r);
  const oldPlayers = new Map((before?.players ?? []).map((r) => [r.player_id, key(r)]));
  const oldPairings = new Map((before?.pairings ?? []).map((r) => [r.game_id, key(r)]));
  const present = new Set(after.players.map((r) => r.player_id));
  return {
    players: after.players.filter((r) => oldPlayers.get(r.player_id) !== key(r)),
    pairings: after.pairings.filter((r) => oldPairings.get(r.game_id) !== key(r)),
    removedPlayers: [...oldPlayers.keys()].filter((id) => !present.has(id)),
  };
}
