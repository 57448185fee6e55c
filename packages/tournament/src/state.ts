/**
 * The tournament aggregate's state, folded from its events by `evolve`. Maps are replaced, never
 * changed in place, so a state once returned stays as it was; they are persistent maps
 * (`PersistentMap`), so replacing one entry does not copy the others.
 */
import type { ColorName } from '@shogi/rules';
import type { Entrant, ImportedCell, Pairing } from './events.js';
import { PersistentMap } from './persistent-map.js';
import type { TournamentTerms } from './terms.js';

export interface PlayerEntry extends Entrant {
  /** Out of pairing: paused (an arena) — still in the standings. */
  readonly paused: boolean;
  /** When the player last joined, rejoined or came back from a game: their wait starts here. */
  readonly waitingSince: string;
  /** Delayed pauses so far (lishogi's Pause counter), and when the last one was. */
  readonly pauses: number;
  readonly pausedAt: string | null;
  /** The player's paired games, in the order paired. */
  readonly gameIds: readonly string[];
  /**
   * The stream version of the event that put the player in (a rejoin after a pause keeps it; a
   * join after a withdrawal before the start is a new entry): the join order ties are broken by.
   */
  readonly entered: number;
  /** Taken out as an engine user: in no standings, never paired again (PlayerEjected). */
  readonly ejected?: true;
}

export interface PairingEntry extends Pairing {
  readonly pairedAt: string;
  readonly berserk: { readonly sente: boolean; readonly gote: boolean };
  /** Absent while the game is played. */
  readonly result?: {
    readonly winner: ColorName | null;
    readonly plies: number;
    readonly at: string;
    readonly forfeit: boolean;
  };
}

/** The times each player of an arrangement proposed (ISO-8601; null: none), and the one agreed. */
export interface ArrangementTimes {
  readonly sente: string | null;
  readonly gote: string | null;
  readonly scheduledAt: string | null;
}

/** A Swiss continued from a TRF: what the file held (events.ts `SwissImported`). */
export interface SwissImport {
  /** The imported players in the file's pairing-number order. */
  readonly order: readonly string[];
  /** Each imported player's cells (the rounds played, and a bye requested for the next). */
  readonly cells: ReadonlyMap<string, readonly ImportedCell[]>;
  readonly rounds: number;
  readonly initialColor: 'w' | 'b';
  readonly forbidden: readonly (readonly [string, string])[];
}

export type TournamentStatus = 'none' | 'created' | 'started' | 'finished';

export interface TournamentState {
  readonly status: TournamentStatus;
  readonly tournamentId: string;
  /** Null before creation. */
  readonly terms: TournamentTerms | null;
  readonly createdBy: { readonly id: string; readonly name: string } | null;
  readonly startedAt: string | null;
  readonly finishedAt: string | null;
  readonly terminated: boolean;
  /** Everyone in it, in the order they first joined. */
  readonly players: ReadonlyMap<string, PlayerEntry>;
  readonly pairings: ReadonlyMap<string, PairingEntry>;
  /** Each player's game in progress. */
  readonly playing: ReadonlyMap<string, string>;
  /** Each player's last opponent: never paired again at once. */
  readonly lastOpponent: ReadonlyMap<string, string>;
  /** A robin's players in seed order, fixed when it starts (its Berger table's seats); null before. */
  readonly seeds: readonly string[] | null;
  /** An arranged robin's times proposed and agreed, by arrangement id (arrangements.ts). */
  readonly arrangementTimes: ReadonlyMap<string, ArrangementTimes>;
  /** A Swiss's byes: each round's (1-based) players given the pairing-allocated bye. */
  readonly byes: ReadonlyMap<number, readonly string[]>;
  /** A Swiss continued from a TRF, null otherwise. */
  readonly swissImport: SwissImport | null;
  /** The number of events folded (the stream's version). */
  readonly version: number;
}

export const initialTournamentState = (): TournamentState => ({
  status: 'none',
  tournamentId: '',
  terms: null,
  createdBy: null,
  startedAt: null,
  finishedAt: null,
  terminated: false,
  players: PersistentMap.empty(),
  pairings: PersistentMap.empty(),
  playing: PersistentMap.empty(),
  lastOpponent: PersistentMap.empty(),
  seeds: null,
  arrangementTimes: PersistentMap.empty(),
  byes: PersistentMap.empty(),
  swissImport: null,
  version: 0,
});

/** Players free to be paired now: in, not paused, not playing. */
export const waitingPlayers = (state: TournamentState): PlayerEntry[] =>
  [...state.players.values()].filter((p) => !p.paused && !state.playing.has(p.id));

/** Whether a running tournament's pairings of an ejected player are lost by them (lila `forfeitByTourAndUserId`). */
export const forfeitsEjected = (state: TournamentState): boolean =>
  state.status === 'started' && state.terms?.format !== 'swiss';

export const colorOf = (pairing: Pairing, playerId: string): ColorName | null =>
  pairing.sente === playerId ? 'sente' : pairing.gote === playerId ? 'gote' : null;
