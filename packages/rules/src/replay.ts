/**
 * Replays a game record through a `PositionHistory` and says what the rules make of it: the
 * final position, and whether it ended by rule (mate, stalemate, repetition, perpetual check,
 * impasse) or at an illegal move. What a record merely states (resignation, time-up, an
 * interruption) is not a rule of the board and leaves the status `ongoing`; the one
 * stated ending replay judges is an impasse declaration (%KACHI, 入玉勝ち), made by the
 * side to move after the last move.
 */

import type { GameRecord } from './notation/record.js';
import { type MoveRejection, PositionHistory } from './position-history.js';
import { parseSfen, toSfen } from './sfen.js';
import type { Color, Ruleset } from './types.js';

export const REPLAY_STATUSES = [
  'ongoing',
  'checkmate',
  'stalemate',
  'sennichite',
  'perpetual_check',
  'impasse',
  'illegal',
] as const;
export type ReplayStatus = (typeof REPLAY_STATUSES)[number];

/** Why a replay stopped at a move; `bad_position` (ply 0) when the start SFEN is invalid. */
export type ReplayRejection = MoveRejection | 'bad_position';

export interface ReplayResult {
  /** Legal moves played. */
  readonly plies: number;
  /** The position after them. */
  readonly sfen: string;
  readonly status: ReplayStatus;
  /** The winner by rule; absent while ongoing and for draws. */
  readonly winner?: Color;
  /** The first move the rules reject: its 1-based ply and the reason. */
  readonly illegal?: { readonly ply: number; readonly reason: ReplayRejection };
}

function result(game: PositionHistory, illegal?: { ply: number; reason: ReplayRejection }): ReplayResult {
  const outcome = game.outcome;
  const base = { plies: game.ply, sfen: toSfen(game.position) };
  if (illegal) return { ...base, status: 'illegal', illegal };
  const winner = 'winner' in outcome && outcome.winner !== null ? { winner: outcome.winner } : {};
  return { ...base, status: outcome.status, ...winner };
}

/** Plays the moves until one is rejected; the game object holds the state reached. */
function play(
  sfen: string,
  moves: readonly string[],
  ruleset: Ruleset,
): { game: PositionHistory; illegal?: { ply: number; reason: ReplayRejection } } | { bad: ReplayResult } {
  const start = parseSfen(sfen);
  if (!start.ok) return { bad: { plies: 0, sfen, status: 'illegal', illegal: { ply: 0, reason: 'bad_position' } } };
  const game = new PositionHistory(start.value, ruleset);
  for (const [i, usi] of moves.entries()) {
    const played = game.playUsi(usi);
    if (!played.ok) return { game, illegal: { ply: i + 1, reason: played.error } };
  }
  return { game };
}

/** Replays a bare move list (USI) from a start position. */
export function replayMoves(sfen: string, moves: readonly string[], ruleset: Ruleset = 'default'): ReplayResult {
  const run = play(sfen, moves, ruleset);
  return 'bad' in run ? run.bad : result(run.game, run.illegal);
}

/** Replays a record's moves, then judges a recorded impasse declaration. */
export function replayRecord(record: GameRecord, ruleset: Ruleset = 'default'): ReplayResult {
  const run = play(record.sfen, record.moves, ruleset);
  if ('bad' in run) return run.bad;
  if (run.illegal) return result(run.game, run.illegal);
  // %KACHI: the side to move declares; valid wins, invalid loses (RULES.md, impasse)
  if (record.ending?.kind === 'kachi') run.game.declareImpasse();
  return result(run.game);
}
