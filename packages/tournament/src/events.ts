/**
 * The events of one tournament's stream, in the same log as the games (a stream per
 * tournament). Each is `{ type, data }`; the store adds the position. Times are ISO-8601
 * strings taken from the command that caused the event. Swiss (or any later format) adds its
 * own events beside these on the same streams.
 */
import type { ColorName } from '@shogi/rules';
import type { TournamentTerms } from './terms.js';

export interface Entrant {
  readonly id: string;
  readonly name: string;
  /** The player's rating in the tournament's category when they joined. */
  readonly rating: number;
  /** A bot account (labelled BOT in standings). */
  readonly bot: boolean;
}

export interface TournamentCreated {
  readonly type: 'TournamentCreated';
  readonly data: {
    readonly tournamentId: string;
    readonly createdBy: { readonly id: string; readonly name: string };
    readonly terms: TournamentTerms;
    readonly at: string;
  };
}

/** Joined, or in an arena rejoined after a pause. */
export interface PlayerJoined {
  readonly type: 'PlayerJoined';
  readonly data: { readonly player: Entrant; readonly at: string };
}

/** Left before the start: out of the tournament entirely. */
export interface PlayerWithdrew {
  readonly type: 'PlayerWithdrew';
  readonly data: { readonly playerId: string; readonly at: string };
}

/**
 * Left a started arena: kept in the standings, not paired until they join again. `delayed`:
 * a rejoin waits out lishogi's Pause delay (the leaders' pauses, and a stall's).
 */
export interface PlayerPaused {
  readonly type: 'PlayerPaused';
  readonly data: {
    readonly playerId: string;
    readonly at: string;
    readonly reason: 'withdrew' | 'no_start';
    readonly delayed: boolean;
  };
}

export interface TournamentStarted {
  readonly type: 'TournamentStarted';
  readonly data: { readonly at: string };
}

export interface Pairing {
  readonly gameId: string;
  readonly sente: string;
  readonly gote: string;
  /** A robin's round (1-based, its Berger table's) or a Swiss's. */
  readonly round?: number;
}

/**
 * One wave of an arena, or one round of a robin or a Swiss. `byes`: a Swiss round's players
 * paired with no one (the pairing-allocated bye, a point).
 */
export interface PlayersPaired {
  readonly type: 'PlayersPaired';
  readonly data: {
    readonly pairings: readonly Pairing[];
    readonly at: string;
    readonly byes?: { readonly round: number; readonly players: readonly string[] };
  };
}

/** A player halved their clock before their first move (the game stream records the clock). */
export interface PlayerBerserked {
  readonly type: 'PlayerBerserked';
  readonly data: { readonly gameId: string; readonly color: ColorName; readonly at: string };
}

/**
 * A paired game ended and counts: its winner (null: a draw) and its length. `forfeit`: a robin
 * or Swiss game one player never showed for, lost by them, no game played; a robin's forfeit
 * with no winner is lost by both (neither showed).
 */
export interface GameScored {
  readonly type: 'GameScored';
  readonly data: {
    readonly gameId: string;
    readonly winner: ColorName | null;
    readonly plies: number;
    readonly at: string;
    readonly forfeit?: true;
  };
}

/**
 * A player of an arranged robin proposed a time for one of their games (null: took their
 * proposal back). The agreed time follows from both proposals (arrangements.ts).
 */
export interface ArrangementTimeProposed {
  readonly type: 'ArrangementTimeProposed';
  readonly data: {
    readonly arrangementId: string;
    readonly playerId: string;
    readonly time: string | null;
    readonly at: string;
  };
}

/** One round's cell of an imported player, as the TRF wrote it; the opponent by player id. */
export interface ImportedCell {
  readonly opponent: string | null;
  /** The TRF's `w` is sente. */
  readonly color: 'w' | 'b' | null;
  readonly score: 'win' | 'draw' | 'loss';
  /** Played over the board (not a forfeit, not a bye). */
  readonly played: boolean;
  /** Paired by the system: a game (even forfeited) or the pairing-allocated bye. */
  readonly participated: boolean;
}

/**
 * A Swiss paired elsewhere, continued here: its players in the TRF's pairing-number order, each
 * one's cells of the `rounds` played (and a bye requested for the next round, when the file has
 * one), the first round's colour of the first player, the pairs that never meet.
 */
export interface SwissImported {
  readonly type: 'SwissImported';
  readonly data: {
    readonly players: readonly Entrant[];
    readonly cells: readonly (readonly ImportedCell[])[];
    readonly rounds: number;
    readonly initialColor: 'w' | 'b';
    readonly forbidden: readonly (readonly [string, string])[];
    readonly at: string;
  };
}

/**
 * A player marked as an engine user by a moderator, taken out of the tournament: out of the
 * standings and the pairings for good (issue 47; lila's `ejectLameFromEnterable` and
 * `removePlayerAndRewriteHistory`).
 */
export interface PlayerEjected {
  readonly type: 'PlayerEjected';
  readonly data: { readonly playerId: string; readonly at: string };
}

export interface TournamentFinished {
  readonly type: 'TournamentFinished';
  readonly data: { readonly at: string };
}

/** Ended by its creator (or an operator) before its time: lichess's terminate. */
export interface TournamentTerminated {
  readonly type: 'TournamentTerminated';
  readonly data: { readonly by: string; readonly at: string };
}

export type TournamentEvent =
  | TournamentCreated
  | PlayerJoined
  | PlayerWithdrew
  | PlayerPaused
  | TournamentStarted
  | PlayersPaired
  | PlayerBerserked
  | GameScored
  | ArrangementTimeProposed
  | SwissImported
  | PlayerEjected
  | TournamentFinished
  | TournamentTerminated;

export type TournamentEventType = TournamentEvent['type'];

export const TOURNAMENT_EVENT_TYPES = [
  'TournamentCreated',
  'PlayerJoined',
  'PlayerWithdrew',
  'PlayerPaused',
  'TournamentStarted',
  'PlayersPaired',
  'PlayerBerserked',
  'GameScored',
  'ArrangementTimeProposed',
  'SwissImported',
  'PlayerEjected',
  'TournamentFinished',
  'TournamentTerminated',
] as const satisfies readonly TournamentEventType[];

export const isTournamentEventType = (s: string): s is TournamentEventType =>
  (TOURNAMENT_EVENT_TYPES as readonly string[]).includes(s);
