/**
 * The state of one game, folded from its events.
 *
 * Folding must be O(N) for N events, so the rules `Game` (position, repetition keys,
 * check flags) is kept across events instead of replayed per event. It lives in a
 * `Lineage` shared by the states of one fold: an append-only list of accepted USI moves
 * and a rules `Game` that has played exactly `lineage.moves`. A state sees the first
 * `state.ply` of them. `evolve` appends when the state is at the lineage's tip and
 * branches (copies, rebuilds) otherwise, so older states stay correct; `decide` plays a
 * move it accepts on the lineage's game ahead of the state (a tentative move), and the
 * `evolve` of that MoveAccepted finds it already there. Any mismatch rebuilds the game
 * from the move list, so the cache can cost time but never change a verdict.
 */
import {
  COLORS,
  type Color,
  type ColorName,
  Game,
  type Handicap,
  parseSfen,
  parseUsi,
  type Ruleset,
} from '@shogi/rules';
import type { Clock } from './clock.js';
import type { EndReason, PlayerRef } from './events.js';
import type { TimeControl } from './time-control.js';

export interface Lineage {
  readonly initialSfen: string;
  readonly ruleset: Ruleset;
  /** Accepted USI moves (a state sees the first `ply`), plus possibly one tentative move. */
  readonly moves: string[];
  /** The rules game after exactly `moves` (rebuilt lazily when null). */
  game: Game | null;
}

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
  readonly lineage: Lineage | null;
  /**
   * The clocks as of the start of the current turn (game-clock.ts); null for unlimited games.
   * Before both first moves, `turnStartedAt` starts the first-move timer and nothing is charged.
   */
  readonly clock: Clock | null;
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
  lineage: null,
  clock: null,
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
export const movesOf = (state: GameState): string[] => state.lineage?.moves.slice(0, state.ply) ?? [];

/** Replays moves from the initial position; trusted input (accepted moves only). */
export function replay(initialSfen: string, ruleset: Ruleset, moves: readonly string[]): Game {
  const parsed = parseSfen(initialSfen);
  if (!parsed.ok) throw new Error(`recorded initial SFEN does not parse: ${parsed.error.message}`);
  const game = new Game(parsed.value, ruleset);
  for (const usi of moves) {
    const r = game.playUsi(usi);
    if (!r.ok) throw new Error(`recorded accepted move ${usi} is not legal on replay: ${r.error}`);
  }
  return game;
}

/** A fresh lineage for `state`'s accepted moves (the slow path: O(ply)). */
export function branchLineage(state: GameState): Lineage {
  const old = state.lineage;
  if (old === null || state.info === null) throw new Error('no game');
  const moves = old.moves.slice(0, state.ply);
  return { initialSfen: old.initialSfen, ruleset: old.ruleset, moves, game: null };
}

/**
 * The lineage's game after all its moves: built on first use, caught up incrementally
 * (its moves are always a prefix of `lineage.moves`).
 */
export function lineageGame(lineage: Lineage): Game {
  let game = lineage.game;
  if (game === null) {
    game = replay(lineage.initialSfen, lineage.ruleset, lineage.moves);
    lineage.game = game;
    return game;
  }
  for (let i = game.ply; i < lineage.moves.length; i++) {
    const usi = lineage.moves[i] as string;
    const r = game.playUsi(usi);
    if (!r.ok) throw new Error(`recorded accepted move ${usi} is not legal on replay: ${r.error}`);
  }
  return game;
}

/**
 * A rules game positioned exactly at `state` that the caller may play one move on:
 * the shared one when the state is at the lineage's tip (then `shared` is true and a
 * played move must be pushed to `lineage.moves`), else a private rebuilt one.
 */
export function gameAt(state: GameState): { game: Game; lineage: Lineage; shared: boolean } {
  const lineage = state.lineage;
  if (lineage === null) throw new Error('no game');
  if (lineage.moves.length === state.ply) return { game: lineageGame(lineage), lineage, shared: true };
  const own = branchLineage(state);
  return { game: lineageGame(own), lineage: own, shared: false };
}

export { sideOfSfen } from '@shogi/rules';

/** A parsed move equals the USI text (so `7g7f` and a re-formatted `7g7f` match). */
export const sameMove = (a: string, b: string): boolean => a === b || parseUsi(a) === parseUsi(b);
