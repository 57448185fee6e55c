/** Commands of the game aggregate. Time comes in on the command (`now`), never from a clock. */
import type { Handicap, Ruleset } from '@shogi/rules';
import type { ClockRules } from './clock.js';
import type { PlayerRef } from './events.js';
import type { TimeControl } from './time-control.js';

export interface CreateGame {
  readonly type: 'CreateGame';
  readonly gameId: string;
  readonly sente: PlayerRef;
  readonly gote: PlayerRef;
  readonly ruleset: Ruleset;
  /** A standard handicap; its SFEN wins over `initialSfen`. */
  readonly handicap?: Handicap | null;
  /** A custom start position; default the standard start. */
  readonly initialSfen?: string | null;
  /** Default unlimited. */
  readonly timeControl?: TimeControl;
  /** Default false; a rated game needs a clock. */
  readonly rated?: boolean;
  /** Default `standard`; `csa` needs a byoyomi or Fischer clock. */
  readonly clockRules?: ClockRules;
  /** Default false: an illegal move is refused, and the mover may move again. */
  readonly illegalMoveLoses?: boolean;
  /** Default none. */
  readonly maxMoves?: number;
  /** Seconds each side has for its first move (a real-time clock's): default `FIRST_MOVE_MS`'s 30. */
  readonly firstMoveSeconds?: number;
  /** Default false: the players' preferences decide; true for a game whose terms refuse takebacks. */
  readonly noTakebacks?: boolean;
  /**
   * A tournament's game (its stream's id): no abort, and an ending before both sides moved stands
   * (the one who did not move loses, lishogi's arena rule). Takebacks are refused by `noTakebacks`.
   */
  readonly tournamentId?: string;
  readonly now: Date;
}

/** The gateway's command: record a player's move for the worker to validate. */
export interface SubmitMove {
  readonly type: 'SubmitMove';
  readonly playerId: string;
  readonly usi: string;
  /** Accepted moves the player saw (the game's current ply). */
  readonly ply: number;
  readonly now: Date;
  /** A retry of the same request with the same key records nothing new. */
  readonly idempotencyKey?: string;
  /** Recorded with the move, at most MAX_COMMENT_CHARS of it. */
  readonly comment?: string;
  /** The player's page lost focus since their previous move (the web client's report; fair play reads it). */
  readonly blur?: boolean;
}

/** The worker's command: give every submission up to `seq` (inclusive) its verdict. */
export interface ValidatePending {
  readonly type: 'ValidatePending';
  readonly seq: number;
  readonly now: Date;
}

export interface Resign {
  readonly type: 'Resign';
  readonly playerId: string;
  readonly now: Date;
  /** Recorded with the event, so that only a replay of this very request answers its seq after the end. */
  readonly idempotencyKey?: string;
}

/** The side to move declares impasse (jishogi, 27-point rule): it wins if the declaration is valid, else loses. */
export interface DeclareImpasse {
  readonly type: 'DeclareImpasse';
  readonly playerId: string;
  readonly now: Date;
  /** Recorded with the event, so that only a replay of this very request answers its seq after the end. */
  readonly idempotencyKey?: string;
}

/**
 * The flag check (a delayed job at the deadline, or the sweeper): gives pending submissions
 * their verdict, then ends the game if the side to move has run out of time at `now` (on
 * time, or aborted when it was its first move). Nothing when there is nothing to do.
 */
export interface CheckClock {
  readonly type: 'CheckClock';
  readonly now: Date;
}

/** A player who has not moved yet ends the game before both sides' first moves: never rated. */
export interface Abort {
  readonly type: 'Abort';
  readonly playerId: string;
  readonly now: Date;
  /** Recorded with the event, so that only a replay of this very request answers its seq after the end. */
  readonly idempotencyKey?: string;
}

/**
 * A player asks to take back their last move. `preferencesAllow`: both players' takeback
 * preferences allow one in this game (the caller reads them; takeback.ts says how).
 */
export interface ProposeTakeback {
  readonly type: 'ProposeTakeback';
  readonly playerId: string;
  readonly preferencesAllow: boolean;
  readonly now: Date;
}

/**
 * The opponent answers a proposal (`accept`), or the proposer withdraws it (`accept: false`).
 */
export interface AnswerTakeback {
  readonly type: 'AnswerTakeback';
  readonly playerId: string;
  readonly accept: boolean;
  readonly now: Date;
}

/** A tournament player halves their own main time before their first move (see events.ts Berserked). */
export interface Berserk {
  readonly type: 'Berserk';
  readonly playerId: string;
  readonly now: Date;
}

export type GameCommand =
  | Berserk
  | ProposeTakeback
  | AnswerTakeback
  | CreateGame
  | SubmitMove
  | ValidatePending
  | Resign
  | DeclareImpasse
  | CheckClock
  | Abort;
