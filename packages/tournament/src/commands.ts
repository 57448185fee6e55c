/**
 * Commands to the tournament aggregate. Each carries `now`, the time of the decision; pairings
 * come from a pairer (pairer.ts), given game ids by the caller, and `decide` only checks them.
 */
import type { ColorName } from '@shogi/rules';
import type { Entrant, ImportedCell, Pairing } from './events.js';
import type { TournamentTerms } from './terms.js';

export interface CreateTournament {
  readonly type: 'CreateTournament';
  readonly tournamentId: string;
  readonly createdBy: { readonly id: string; readonly name: string };
  readonly terms: TournamentTerms;
  readonly now: Date;
}

export interface JoinTournament {
  readonly type: 'JoinTournament';
  readonly player: Entrant;
  /** The edge's hash of the password given, compared with the terms'. */
  readonly passwordHash: string | null;
  /** The player's rated games in the tournament's category, for `conditions.nbRatedGame`. */
  readonly ratedGames: number;
  readonly now: Date;
}

export interface WithdrawFromTournament {
  readonly type: 'WithdrawFromTournament';
  readonly playerId: string;
  readonly now: Date;
}

export interface StartTournament {
  readonly type: 'StartTournament';
  readonly now: Date;
}

export interface PairPlayers {
  readonly type: 'PairPlayers';
  readonly pairings: readonly Pairing[];
  readonly now: Date;
}

export interface Berserk {
  readonly type: 'Berserk';
  readonly gameId: string;
  readonly playerId: string;
  readonly now: Date;
}

export interface ScoreGame {
  readonly type: 'ScoreGame';
  readonly gameId: string;
  readonly winner: ColorName | null;
  readonly plies: number;
  /** The side that never made its first move (the game ended for it): paused, as lishogi's `withdrawNonMover`. */
  readonly noStartBy?: ColorName;
  /** The sides that berserked, as the game's log says (a berserk the tournament did not hear of yet is recorded first). */
  readonly berserk?: { readonly sente: boolean; readonly gote: boolean };
  readonly now: Date;
}

/** A robin game one side never showed for: scored as a loss for `absent`, no game played. */
export interface ForfeitGame {
  readonly type: 'ForfeitGame';
  readonly gameId: string;
  readonly absent: ColorName;
  readonly now: Date;
}

/** A player of an arranged robin proposes a time for one of their games (null: takes it back). */
export interface ProposeArrangementTime {
  readonly type: 'ProposeArrangementTime';
  readonly arrangementId: string;
  readonly playerId: string;
  readonly time: Date | null;
  readonly now: Date;
}

/**
 * The window of an arranged robin is over: each game never played is forfeited by whoever never
 * showed (arrangements.ts `absentOf`), recorded under the id `<tournament>-<arrangement>`.
 */
export interface ForfeitArrangements {
  readonly type: 'ForfeitArrangements';
  readonly now: Date;
}

/** The creator continues a Swiss paired elsewhere (`POST /api/swiss/{id}/trf`), before its start. */
export interface ImportSwiss {
  readonly type: 'ImportSwiss';
  readonly by: string;
  readonly players: readonly Entrant[];
  readonly cells: readonly (readonly ImportedCell[])[];
  readonly rounds: number;
  readonly initialColor: 'w' | 'b';
  readonly forbidden: readonly (readonly [string, string])[];
  readonly now: Date;
}

/** Takes an engine-marked player out (a moderator's mark, issue 47). */
export interface EjectPlayer {
  readonly type: 'EjectPlayer';
  readonly playerId: string;
  readonly now: Date;
}

export interface FinishTournament {
  readonly type: 'FinishTournament';
  readonly now: Date;
}

export interface TerminateTournament {
  readonly type: 'TerminateTournament';
  readonly by: string;
  readonly now: Date;
}

export type TournamentCommand =
  | CreateTournament
  | JoinTournament
  | WithdrawFromTournament
  | StartTournament
  | PairPlayers
  | Berserk
  | ScoreGame
  | ForfeitGame
  | ProposeArrangementTime
  | ForfeitArrangements
  | ImportSwiss
  | EjectPlayer
  | FinishTournament
  | TerminateTournament;
