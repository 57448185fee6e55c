/**
 * A game's analysis from the engine's evaluation of each position: scores turned to sente's
 * side, and every move judged from the scores before and after it.
 */
import type { AnalysisPly } from '@shogi/protocol';
import type { ColorName } from '@shogi/rules';
import type { UsiScore } from '@shogi/usi';
import { judge, normaliseScore } from './judgment.js';

/** The engine's verdict on one position, as its search reported it (score from the side to move). */
export interface PositionEvaluation {
  readonly score: UsiScore;
  /** The best line, best move first; empty where the game is over. */
  readonly pv: readonly string[];
}

const other = (side: ColorName): ColorName => (side === 'sente' ? 'gote' : 'sente');

/**
 * The plies of an analysis: `evaluations[i]` is of the position after `firstPly + i` moves,
 * where `firstSideToMove` is to move at `firstPly`. The first position's judgment is null:
 * the move that led to it is not in the list.
 */
export function analysisPlies(
  firstSideToMove: ColorName,
  evaluations: readonly PositionEvaluation[],
  firstPly = 0,
): AnalysisPly[] {
  const plies: AnalysisPly[] = [];
  let sideToMove = firstSideToMove;
  for (const [i, evaluation] of evaluations.entries()) {
    const score = normaliseScore(evaluation.score, sideToMove);
    const previous = plies[i - 1];
    plies.push({
      ply: firstPly + i,
      score,
      best: evaluation.pv[0] ?? null,
      pv: [...evaluation.pv],
      judgment: previous === undefined ? null : judge(previous.score, score, other(sideToMove)),
    });
    sideToMove = other(sideToMove);
  }
  return plies;
}
