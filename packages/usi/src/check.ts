/**
 * An engine's answer judged by the rules. An engine is a program we did not write: its
 * move is played only once the rules say it is legal in this position and history, and
 * its impasse declaration counts only if the rules agree. Positions are checked too,
 * because an engine given an illegal move list quietly stops reading it and then answers
 * for another position.
 */
import {
  assessImpasse,
  type ImpasseAssessment,
  type MoveRejection,
  type Outcome,
  PositionHistory,
  parseSfen,
  type Ruleset,
  type SfenError,
  START_SFEN,
} from '@shogi/rules';
import type { PositionSpec } from './commands.js';
import type { Bestmove } from './messages.js';

export type PositionProblem =
  | { readonly code: 'bad_sfen'; readonly error: SfenError }
  /** Move `ply` (1-based) of the spec's list is not legal. */
  | { readonly code: 'illegal_move'; readonly ply: number; readonly move: string; readonly reason: MoveRejection }
  /** The game is already over there (mate, repetition…): nothing is left to search. */
  | { readonly code: 'game_over'; readonly outcome: Outcome };

export type PositionCheck =
  | { readonly ok: true; readonly game: PositionHistory }
  | { readonly ok: false; readonly problem: PositionProblem };

/** Replays the spec with the rules: the game at its end, or why it cannot be searched. */
export function checkPosition(position: PositionSpec, ruleset: Ruleset = 'default'): PositionCheck {
  const start = parseSfen(position.sfen ?? START_SFEN);
  if (!start.ok) return { ok: false, problem: { code: 'bad_sfen', error: start.error } };
  const game = new PositionHistory(start.value, ruleset);
  for (const [i, move] of (position.moves ?? []).entries()) {
    const played = game.playUsi(move);
    if (!played.ok) return { ok: false, problem: { code: 'illegal_move', ply: i + 1, move, reason: played.error } };
  }
  if (game.outcome.status !== 'ongoing') return { ok: false, problem: { code: 'game_over', outcome: game.outcome } };
  return { ok: true, game };
}

export type BestmoveCheck =
  /** A legal move, and the game's outcome after it (checkmate, repetition… or ongoing). */
  | { readonly verdict: 'move'; readonly move: string; readonly outcome: Outcome }
  | { readonly verdict: 'resign' }
  /** A valid impasse declaration: the side to move wins. */
  | { readonly verdict: 'win'; readonly declaration: ImpasseAssessment }
  /** The engine's move breaks the rules; never to be played. */
  | { readonly verdict: 'illegal_move'; readonly move: string; readonly reason: MoveRejection }
  /** The engine declared a win by impasse that the rules do not grant. */
  | { readonly verdict: 'invalid_declaration'; readonly declaration: ImpasseAssessment }
  /** The position itself could not be searched, so no answer can be judged. */
  | { readonly verdict: 'bad_position'; readonly problem: PositionProblem };

/** Judges an engine's `bestmove` in the position it was asked about. */
export function checkBestmove(position: PositionSpec, bestmove: Bestmove, ruleset: Ruleset = 'default'): BestmoveCheck {
  const checked = checkPosition(position, ruleset);
  if (!checked.ok) return { verdict: 'bad_position', problem: checked.problem };
  const game = checked.game;
  switch (bestmove.kind) {
    case 'resign':
      return { verdict: 'resign' };
    case 'win': {
      const declaration = assessImpasse(game.position);
      return declaration.valid ? { verdict: 'win', declaration } : { verdict: 'invalid_declaration', declaration };
    }
    default: {
      const played = game.playUsi(bestmove.move);
      if (!played.ok) return { verdict: 'illegal_move', move: bestmove.move, reason: played.error };
      return { verdict: 'move', move: bestmove.move, outcome: played.value };
    }
  }
}
