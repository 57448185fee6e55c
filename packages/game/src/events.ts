/**
 * The events of one game's stream. Each is `{ type, data }`; the store adds the stream
 * position (`seq`, dense from 1) and the record time. Times are ISO-8601 strings taken
 * from the command that caused the event (never read from a clock here).
 */
import { type ColorName, type GameRecord, type Handicap, ILLEGAL_REASONS, type Ruleset } from '@shogi/rules';
import type { ClockRules, SideClock } from './clock.js';
import type { TimeControl } from './time-control.js';

export interface PlayerRef {
  readonly id: string;
  readonly name: string;
}

export const END_REASONS = [
  'checkmate',
  'resignation',
  'timeout',
  'sennichite',
  'perpetual_check',
  'stalemate',
  'impasse',
  'abort',
  /** in a game whose terms say so (`illegalMoveLoses`): the mover of an illegal move loses at once */
  'illegal_move',
  /** in a game with a move limit (`maxMoves`): a draw once that many moves are played */
  'max_moves',
  /** a draw no rule made: agreed, as an imported record states it (`%HIKIWAKE`, 引き分け) */
  'draw',
] as const;
export type EndReason = (typeof END_REASONS)[number];

/**
 * Why the worker rejected a recorded submission: a rules reason, or a game-level one
 * (the game ended, the ply moved on, it was not the submitter's turn any more, or the
 * submitter's time had run out when the server received it: `timeout`, and a GameEnded follows).
 */
export const VERDICT_REJECTIONS = [
  'malformed_usi',
  'stale_ply',
  'not_your_turn',
  'timeout',
  ...ILLEGAL_REASONS,
] as const;
export type VerdictRejection = (typeof VERDICT_REJECTIONS)[number];

export interface GameCreated {
  readonly type: 'GameCreated';
  readonly data: {
    readonly gameId: string;
    readonly sente: PlayerRef;
    readonly gote: PlayerRef;
    readonly ruleset: Ruleset;
    readonly handicap: Handicap | null;
    readonly initialSfen: string;
    /** Games recorded before clocks existed are read back as unlimited (see the store's upcast). */
    readonly timeControl: TimeControl;
    /** Rated games change both players' ratings in the time control's category; never unlimited. */
    readonly rated: boolean;
    readonly createdAt: string;
    /** Absent: this server's own clock rules; `csa`: the CSA protocol's, from `createdAt` on (csa-clock.ts). */
    readonly clockRules?: ClockRules;
    /**
     * An illegal move loses at once (the CSA protocol's rule), where this server otherwise
     * refuses it and waits for another: the submission is recorded, rejected, and a GameEnded
     * 'illegal_move' follows. Absent: false.
     */
    readonly illegalMoveLoses?: boolean;
    /** The game is drawn ('max_moves') once this many moves are played, unless that move ended it. Absent: no limit. */
    readonly maxMoves?: number;
    /** Seconds each side has for its first move (a tournament's, set by its operator). Absent: `FIRST_MOVE_MS`. */
    readonly firstMoveSeconds?: number;
    /**
     * The game's terms refuse takebacks whatever the players' preferences (a tournament game's,
     * a CSA protocol game's). Absent: the players' preferences decide (takeback.ts).
     */
    readonly noTakebacks?: true;
    /** A tournament's game: the tournament's id (see CreateGame). Absent: a game of its own. */
    readonly tournamentId?: string;
    /** An imported game: what its record said beside the moves, which its exports say again. Absent: a game played here. */
    readonly record?: RecordNotes;
  };
}

/**
 * What an imported record holds beside its start and its moves (those are the game's own
 * GameCreated and MoveAccepted events): the format it came in, the times as written, the
 * ending as the file stated it (`%HIKIWAKE`, `持将棋`), the closing line, the CSA summary,
 * the headers, the comments and the variations. The rules never read it.
 */
export type RecordNotes = Omit<GameRecord, 'sfen' | 'moves'> & {
  readonly format: string;
  /** The player who imported it, when one did (the HTTP import); absent for `npm run import`. */
  readonly importedBy?: string;
  /**
   * Set on records imported since comments have kinds (a note readers skip, else a comment on
   * its move): before, a CSA record's comments kept the `*` of `'*` and had no kind, which
   * recordOfEvents reads them back from.
   */
  readonly commentKinds?: true;
};

export interface MoveSubmitted {
  readonly type: 'MoveSubmitted';
  readonly data: {
    readonly playerId: string;
    readonly color: ColorName;
    /**
     * The move in USI; in a game where illegal moves lose, a submission that is no USI move
     * (the text a protocol could not read as one) is recorded as sent, and rejected.
     */
    readonly usi: string;
    /** The number of accepted moves the submitter saw: the move would be ply `ply + 1`. */
    readonly ply: number;
    readonly receivedAt: string;
    readonly idempotencyKey?: string;
    /**
     * The player's words sent with the move (a CSA engine's `'* 30 -3334FU`: its score and
     * line), kept as sent and shown to whoever follows the game; the rules never read it.
     */
    readonly comment?: string;
    /**
     * The player's client reported that its page lost focus since their previous move (lila's
     * `b: 1`); recorded only when true, so an event without it, older ones included, reads as false.
     */
    readonly blur?: true;
  };
}

/**
 * Both sides' clocks right after an accepted move, computed from the recorded receive times
 * (see game-clock.ts): the opponent's time runs from `movedAt`.
 */
export interface RecordedClock {
  readonly sente: SideClock;
  readonly gote: SideClock;
  /** The move's server receive time: when the opponent's turn began. */
  readonly movedAt: string;
  /**
   * The last instant the side now on move may move (its first-move limit while clocks have
   * not started), lag allowance not included.
   */
  readonly deadlineAt: string;
}

export interface MoveAccepted {
  readonly type: 'MoveAccepted';
  readonly data: {
    /** seq of the MoveSubmitted this verdict answers. */
    readonly submittedSeq: number;
    /** The number of accepted moves after this one (the first move of a game has ply 1). */
    readonly ply: number;
    readonly usi: string;
    /** Position after the move. */
    readonly sfen: string;
    /** The move gives check. */
    readonly check: boolean;
    /** Absent for unlimited games (and games recorded before clocks). */
    readonly clock?: RecordedClock;
  };
}

export interface MoveRejected {
  readonly type: 'MoveRejected';
  readonly data: {
    readonly submittedSeq: number;
    readonly usi: string;
    /** The submission's ply (accepted moves it saw). */
    readonly ply: number;
    readonly reason: VerdictRejection;
  };
}

export interface Resigned {
  readonly type: 'Resigned';
  readonly data: { readonly color: ColorName; readonly at: string; readonly idempotencyKey?: string };
}

/** The side to move declared impasse (27-point rule); a GameEnded follows (declarer wins if valid). */
export interface ImpasseDeclared {
  readonly type: 'ImpasseDeclared';
  readonly data: {
    readonly color: ColorName;
    readonly valid: boolean;
    readonly points: number;
    readonly piecesInCamp: number;
    readonly at: string;
    readonly idempotencyKey?: string;
  };
}

export interface GameEnded {
  readonly type: 'GameEnded';
  readonly data: {
    /** null: a draw. */
    readonly winner: ColorName | null;
    readonly reason: EndReason;
    readonly at: string;
    /** An abort's request key (the player's own ending: see Resigned). */
    readonly idempotencyKey?: string;
    /**
     * The side whose request aborted the game: an abort, or a resignation or impasse
     * declaration made before both sides had moved (ply-rule.ts). Absent for a flag's or an
     * illegal move's abort, and in aborts recorded before it was kept. An abort request's key
     * replays for that side only.
     */
    readonly abortedBy?: ColorName;
  };
}

/** A player asks to take back their last move (and the opponent's reply to it, on their own turn). */
export interface TakebackProposed {
  readonly type: 'TakebackProposed';
  readonly data: { readonly color: ColorName; readonly at: string };
}

/**
 * The opponent accepted: the last `plies` accepted moves are undone. The position, the ply and
 * the clocks after it are recorded, so a reader of the log needs no replay to know them.
 */
export interface TakebackAccepted {
  readonly type: 'TakebackAccepted';
  readonly data: {
    /** the side that accepted */
    readonly color: ColorName;
    /** moves undone: 1, or 2 when the proposer was on move */
    readonly plies: number;
    /** accepted moves left */
    readonly ply: number;
    /** the position after the takeback */
    readonly sfen: string;
    /** the move before it gives check */
    readonly check: boolean;
    readonly at: string;
    /** Absent for unlimited games: times as they were at `at`, the side to move's turn from `at`. */
    readonly clock?: RecordedClock;
  };
}

/** The opponent declined, or the proposer withdrew (`color` says who): no proposal is pending any more. */
export interface TakebackDeclined {
  readonly type: 'TakebackDeclined';
  readonly data: { readonly color: ColorName; readonly at: string };
}

/**
 * A tournament player halved their own main time before their first move (lishogi's berserk:
 * the byoyomi, or the increment, is kept). Only in a tournament's game.
 */
export interface Berserked {
  readonly type: 'Berserked';
  readonly data: { readonly color: ColorName; readonly at: string };
}

export type GameEvent =
  | GameCreated
  | Berserked
  | TakebackProposed
  | TakebackAccepted
  | TakebackDeclined
  | MoveSubmitted
  | MoveAccepted
  | MoveRejected
  | Resigned
  | ImpasseDeclared
  | GameEnded;
export type GameEventType = GameEvent['type'];

export const GAME_EVENT_TYPES = [
  'GameCreated',
  'MoveSubmitted',
  'MoveAccepted',
  'MoveRejected',
  'Resigned',
  'ImpasseDeclared',
  'GameEnded',
  'TakebackProposed',
  'TakebackAccepted',
  'TakebackDeclined',
  'Berserked',
] as const satisfies readonly GameEventType[];

export const isGameEventType = (t: string): t is GameEventType => (GAME_EVENT_TYPES as readonly string[]).includes(t);

/** An event as stored: its stream position and record time added by the event store. */
export type RecordedEvent<E extends GameEvent = GameEvent> = E & {
  readonly gameId: string;
  readonly seq: number;
  readonly recordedAt: string;
  readonly globalPosition: number;
};
