/**
 * Move judgments by lishogi's model (its Advice.scala): a move is an inaccuracy, a mistake
 * or a blunder by how much it lowers the mover's winning chances, a logistic curve of the
 * centipawn score; and by what it does to a forced mate — one allowed against the mover, or
 * one the mover had and let go — graded by how lost (or won) the game was anyway. Winning
 * chances rather than plain centipawn drops, because in a decided game a large drop changes
 * nothing and a small one near equality changes a lot; shogi scores swing far wider than
 * chess's, which is why lishogi's curve is flatter than lichess's.
 */
import type { AnalysisScore, Judgment } from '@shogi/protocol';
import type { ColorName } from '@shogi/rules';
import type { UsiScore } from '@shogi/usi';

export const JUDGMENT_MODEL = {
  /** Scores beyond ± this many centipawns count as this much. */
  cpCeiling: 5500,
  /** The logistic curve's slope: winningChances(cp) = 2 / (1 + e^(−slope·cp)) − 1. */
  slope: 0.001,
  /** The least drop in the mover's winning chances (−1…1) for each judgment, worst first. */
  drops: [
    [0.3, 'blunder'],
    [0.2, 'mistake'],
    [0.1, 'inaccuracy'],
  ] as const satisfies readonly (readonly [number, Judgment])[],
  /** A mate allowed against the mover is a blunder, a mistake below the first, an inaccuracy below the second. */
  mateAllowedBelowCp: [-1000, -4000] as const,
  /** A mate let go is a blunder, a mistake above the first, an inaccuracy above the second. */
  mateLostAboveCp: [1000, 4000] as const,
} as const;

/** A mate the engine found without telling its distance (`mate +`) counts as this many plies. */
export const UNKNOWN_MATE_PLIES = 999;

const sideSign = (side: ColorName): 1 | -1 => (side === 'sente' ? 1 : -1);

/** An engine's score, given from the side to move, as sente sees it (bounds dropped). */
export function normaliseScore(score: UsiScore, sideToMove: ColorName): AnalysisScore {
  const sign = sideSign(sideToMove);
  // `+ 0` turns a negated 0 into 0, which JSON and equality checks both expect
  if (score.kind === 'cp') return { cp: sign * score.value + 0 };
  if (score.plies === 0) return { mate: 0 };
  const plies = score.plies ?? UNKNOWN_MATE_PLIES;
  return { mate: (score.winning ? sign : -sign) * plies };
}

/** The side's chances, −1 (lost) to 1 (won), at a centipawn score from its side. */
export function winningChances(cp: number): number {
  const { cpCeiling, slope } = JUDGMENT_MODEL;
  const ceiled = Math.max(-cpCeiling, Math.min(cpCeiling, cp));
  return 2 / (1 + Math.exp(-slope * ceiled)) - 1;
}

/** A score from the mover's side: centipawns, or whether a forced mate is for or against the mover. */
type MoverView = { readonly cp: number } | { readonly mateForMover: boolean };

/** `mate 0` says the side to move is mated: the mover before its move, the opponent after it. */
function moverView(score: AnalysisScore, mover: ColorName, moverToMove: boolean): MoverView {
  const sign = sideSign(mover);
  if ('cp' in score) return { cp: sign * score.cp };
  if (score.mate === 0) return { mateForMover: !moverToMove };
  return { mateForMover: sign * score.mate > 0 };
}

function byDrop(before: number, after: number): Judgment | null {
  const drop = winningChances(before) - winningChances(after);
  return JUDGMENT_MODEL.drops.find(([least]) => drop >= least)?.[1] ?? null;
}

/** Graded by a centipawn score against thresholds: past the first a mistake, past the second an inaccuracy. */
function graded(past: (limit: number) => boolean, limits: readonly [number, number]): Judgment {
  if (past(limits[1])) return 'inaccuracy';
  return past(limits[0]) ? 'mistake' : 'blunder';
}

/**
 * The judgment of `mover`'s move, from the scores (sente's side) of the positions before and
 * after it; null for a good move. Mate to mate the same way, or a mate against the mover that
 * it escaped, is never judged.
 */
export function judge(before: AnalysisScore, after: AnalysisScore, mover: ColorName): Judgment | null {
  const b = moverView(before, mover, true);
  const a = moverView(after, mover, false);
  if ('cp' in b && 'cp' in a) return byDrop(b.cp, a.cp);
  if ('cp' in b && 'mateForMover' in a)
    return a.mateForMover ? null : graded((limit) => b.cp < limit, JUDGMENT_MODEL.mateAllowedBelowCp);
  if ('mateForMover' in b && b.mateForMover) {
    // a mate let go; a mate now against the mover counts as no score at all, as lishogi's 0
    const afterCp = 'cp' in a ? a.cp : a.mateForMover ? null : 0;
    return afterCp === null ? null : graded((limit) => afterCp > limit, JUDGMENT_MODEL.mateLostAboveCp);
  }
  return null;
}
