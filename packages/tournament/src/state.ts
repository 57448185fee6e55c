/**
 * The tournament aggregate's state, folded from its events by `evolve`. Maps are replaced, never
 * changed in place, so a state once returned stays as it was.
 */
import type { ColorName } from '@shogi/rules';
import type { Entrant, Pairing } from './events.js';
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
  /** A Swiss's byes: each round's (1-based) players given the pairing-allocated bye. */
  readonly byes: ReadonlyMap<number, readonly string[]>;
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
  players: new Map(),
  pairings: new Map(),
  playing: new Map(),
  lastOpponent: new Map(),
  byes: new Map(),
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
