/**
 * The tournament projections as pure functions of the folded state: the rows of `tournaments`,
 * `tournament_players` and `tournament_pairings`. A player's row holds the ranking's keys (score,
 * tiebreak, entered), not a rank: ranks are counted when read, so an event changes the rows of the
 * players and games it names and no other (a join writes one player row, whatever the arena's
 * size). The append writes the rows its events touch (`touchedRows`); the rebuild writes all rows
 * of each tournament's fold (`tournamentRowsOf`). Both take each row from the same functions, so a
 * rebuilt projection equals the live one.
 */
import {
  finishesAt,
  type PairingEntry,
  type PlayerEntry,
  sheetScoresString,
  standingsOf,
  type TournamentEvent,
  type TournamentState,
  tiebreakOf,
  unrankedStandingOf,
} from '@shogi/tournament';
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

/** The `tournaments` row of a created tournament's state; null before its creation. */
export function tournamentRowOf(state: TournamentState): TournamentRow | null {
  const terms = state.terms;
  if (terms === null || state.createdBy === null || state.status === 'none') return null;
  // the winner is read off the standings once, at the end (the only time it is set)
  const winner = state.status === 'finished' ? standingsOf(state)[0] : undefined;
  return {
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
}

/** A player's standings row: their results and the ranking's keys (O(their games)). */
export function playerRowOf(state: TournamentState, player: PlayerEntry): TournamentPlayerRow {
  const s = unrankedStandingOf(state, player);
  return {
    tournament_id: state.tournamentId,
    player_id: player.id,
    name: player.name,
    bot: player.bot,
    rating: player.rating,
    paused: player.paused,
    score: s.score,
    tiebreak: tiebreakOf(s),
    entered: player.entered,
    performance: s.performance,
    fire: s.sheet.fire,
    sheet: sheetScoresString(s.sheet),
    wins: s.wins,
    draws: s.draws,
    losses: s.losses,
  };
}

export const pairingRowOf = (state: TournamentState, p: PairingEntry): TournamentPairingRow => ({
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
});

/** Every row of a created tournament's state; null before its creation (the rebuild). */
export function tournamentRowsOf(state: TournamentState): TournamentRows | null {
  const tournament = tournamentRowOf(state);
  if (tournament === null) return null;
  return {
    tournament,
    // an ejected player is in no standings (fair-play.md#tournaments)
    players: [...state.players.values()].filter((p) => p.ejected !== true).map((p) => playerRowOf(state, p)),
    pairings: [...state.pairings.values()].map((p) => pairingRowOf(state, p)),
  };
}

export interface TouchedRows extends TournamentRows {
  /** Players the events took out of the tournament (a withdrawal before the start, an ejection). */
  readonly removedPlayers: readonly string[];
}

/**
 * The rows `events` change, taken from the state after them: the tournament's, and those of the
 * players and games the events name. A player's row depends on their own games alone (their
 * opponents' ratings are fixed once a game is counted), so no other row can change.
 */
export function touchedRows(after: TournamentState, events: readonly TournamentEvent[]): TouchedRows | null {
  const tournament = tournamentRowOf(after);
  if (tournament === null) return null;
  const playerIds = new Set<string>();
  const gameIds = new Set<string>();
  for (const e of events)
    switch (e.type) {
      case 'PlayerJoined':
        playerIds.add(e.data.player.id);
        break;
      case 'PlayerWithdrew':
      case 'PlayerPaused':
        playerIds.add(e.data.playerId);
        break;
      case 'PlayersPaired':
        for (const p of e.data.pairings) gameIds.add(p.gameId);
        break;
      case 'PlayerBerserked':
        gameIds.add(e.data.gameId);
        break;
      case 'SwissImported':
        for (const p of e.data.players) playerIds.add(p.id);
        break;
      case 'PlayerEjected': {
        // their lost games rewrite their opponents' sheets too
        playerIds.add(e.data.playerId);
        for (const gameId of after.players.get(e.data.playerId)?.gameIds ?? []) {
          gameIds.add(gameId);
          const p = after.pairings.get(gameId);
          if (p !== undefined) for (const id of [p.sente, p.gote]) playerIds.add(id);
        }
        break;
      }
      case 'GameScored': {
        gameIds.add(e.data.gameId);
        const p = after.pairings.get(e.data.gameId);
        if (p !== undefined) for (const id of [p.sente, p.gote]) playerIds.add(id);
        break;
      }
      default:
        break;
    }
  const players: TournamentPlayerRow[] = [];
  const removedPlayers: string[] = [];
  for (const id of playerIds) {
    const p = after.players.get(id);
    if (p === undefined || p.ejected === true) removedPlayers.push(id);
    else players.push(playerRowOf(after, p));
  }
  const pairings: TournamentPairingRow[] = [];
  for (const id of gameIds) {
    const p = after.pairings.get(id);
    if (p !== undefined) pairings.push(pairingRowOf(after, p));
  }
  return { tournament, players, pairings, removedPlayers };
}
