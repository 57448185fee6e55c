/**
 * The state of one game, folded from its events: values only, never changed once made
 * (`evolve` returns a new state). The accepted moves are a shared immutable line
 * (move-line.ts), beside whose newest link the position history is kept.
 */
import { COLORS, type Color, type ColorName, type Handicap, type Ruleset } from '@shogi/rules';
import type { Clock, ClockRules } from './clock.js';
import type { EndReason, PlayerRef } from './events.js';
import { type MoveLine, movesOfLine } from './move-line.js';
import type { TimeControl } from './time-control.js';

export interface PendingMove {
  readonly seq: number;
  readonly playerId: string;
  readonly color: ColorName;
  readonly usi: string;
  readonly ply: number;
  /** The server receive time (ms since the epoch): what the clock charges. */
  readonly receivedAt: number;
  readonly idempotencyKey?: string;
}

/** The request by which a player ended the game: a resignation, an abort, an impasse declaration. */
export interface EndingRequest {
  readonly command: 'Resign' | 'Abort' | 'DeclareImpasse';
  readonly color: ColorName;
  /** The seq of its first event, which is what the request was answered. */
  readonly seq: number;
  readonly idempotencyKey?: string;
}

export interface GameResult {
  readonly winner: ColorName | null;
  readonly reason: EndReason;
  readonly at: string;
}

export interface GameInfo {
  readonly gameId: string;
  readonly sente: PlayerRef;
  readonly gote: PlayerRef;
  readonly ruleset: Ruleset;
  readonly handicap: Handicap | null;
  readonly initialSfen: string;
  readonly timeControl: TimeControl;
  readonly rated: boolean;
  readonly createdAt: string;
  readonly clockRules: ClockRules;
  readonly illegalMoveLoses: boolean;
  /** null: no move limit */
  readonly maxMoves: number | null;
  /** the game's terms refuse takebacks */
  readonly noTakebacks: boolean;
  /** null: not a tournament's game */
  readonly tournamentId: string | null;
}

export type GameStatus = 'none' | 'ongoing' | 'ended';

export interface GameState {
  readonly status: GameStatus;
  /** null until GameCreated. */
  readonly info: GameInfo | null;
  /** Events folded so far, which is also the seq of the last one (streams are dense from 1). */
  readonly seq: number;
  /** Accepted moves. */
  readonly ply: number;
  /** Side to move in the current position. */
  readonly sideToMove: ColorName;
  /** Position after the last accepted move. */
  readonly sfen: string;
  /** The last accepted move gave check. */
  readonly check: boolean;
  /** Submissions without a verdict yet, in seq order (normally at most one). */
  readonly pending: readonly PendingMove[];
  /**
   * Each player's latest submission, for idempotency-key retries: a player's retry of their
   * latest request is answered with its seq even after the opponent has replied.
   */
  readonly lastSubmissionBy: Readonly<Record<ColorName, PendingMove | null>>;
  readonly result: GameResult | null;
  /**
   * The player's request that ended the game, if a player's request did: a replay of its
   * idempotency key by that player is answered with its seq, from the state alone.
   */
  readonly endedBy: EndingRequest | null;
  /** The accepted moves (as many as `ply`); null until GameCreated. */
  readonly line: MoveLine | null;
  /**
   * The clocks as of the start of the current turn (game-clock.ts); null for unlimited games.
   * Before both first moves, `turnStartedAt` starts the first-move timer and nothing is charged.
   */
  readonly clock: Clock | null;
  /** The side whose takeback proposal is pending; a move, an answer or the end clears it. */
  readonly takebackBy: ColorName | null;
  /** Takebacks accepted so far: a turn at a ply played before is another turn (its flag job's id). */
  readonly takebacks: number;
}

export const initialState = (): GameState => ({
  status: 'none',
  info: null,
  seq: 0,
  ply: 0,
  sideToMove: 'sente',
  sfen: '',
  check: false,
  pending: [],
  lastSubmissionBy: { sente: null, gote: null },
  result: null,
  endedBy: null,
  line: null,
  clock: null,
  takebackBy: null,
  takebacks: 0,
});

export const colorName = (c: Color): ColorName => COLORS[c];
export const colorIndex = (c: ColorName): Color => (c === 'sente' ? 0 : 1);
export const opponentOf = (c: ColorName): ColorName => (c === 'sente' ? 'gote' : 'sente');

/** The color `playerId` plays in this game, or null. Sente is checked first (self-play). */
export function colorOfPlayer(state: GameState, playerId: string): ColorName | null {
  const info = state.info;
  if (info === null) return null;
  if (info.sente.id === playerId) return 'sente';
  if (info.gote.id === playerId) return 'gote';
  return null;
}

/** The accepted moves in USI. */
export const movesOf = (state: GameState): string[] => (state.line === null ? [] : movesOfLine(state.line));

/** The line of a created game's moves. */
export function lineOf(state: GameState): MoveLine {
  if (state.line === null) throw new Error('no game');
  return state.line;
}

export { sideOfSfen } from '@shogi/rules';
