/**
 * The engine's verdicts in words and numbers: a score as players write it, its winning
 * chances (lishogi's curve, as the server judges moves by), and a judgment's mark. Pure.
 */
import type { AnalysisPly, AnalysisScore, Judgment } from '@shogi/protocol';

/** Sente's winning chances from −1 to 1: `2 / (1 + e^(−0.001·cp)) − 1`, a mate counting ±1. */
export function winningChance(score: AnalysisScore): number {
  if ('mate' in score) return score.mate > 0 ? 1 : score.mate < 0 ? -1 : 0;
  const cp = Math.max(-5500, Math.min(5500, score.cp));
  return 2 / (1 + Math.exp(-0.001 * cp)) - 1;
}

/** "+0.35", "−1.20", or "mate in 3 for sente"; `mate 0` is the mated side's final position. */
export function scoreText(score: AnalysisScore, sideToMove: 'sente' | 'gote'): string {
  if ('mate' in score) {
    if (score.mate === 0) return `${sideToMove === 'sente' ? 'Sente' : 'Gote'} is mated`;
    return `Mate in ${Math.abs(score.mate)} for ${score.mate > 0 ? 'sente' : 'gote'}`;
  }
  const pawns = (score.cp / 100).toFixed(2);
  return score.cp > 0 ? `+${pawns}` : score.cp < 0 ? `−${pawns.slice(1)}` : '0.00';
}

export const JUDGMENT_MARKS: Readonly<Record<Judgment, string>> = {
  inaccuracy: '?!',
  mistake: '?',
  blunder: '??',
};

/** How many inaccuracies, mistakes and blunders each side made (a move's mover: its ply's parity from the start side). */
export function judgmentCounts(
  plies: readonly AnalysisPly[],
  firstMover: 'sente' | 'gote',
): Record<'sente' | 'gote', Record<Judgment, number>> {
  const zero = (): Record<Judgment, number> => ({ inaccuracy: 0, mistake: 0, blunder: 0 });
  const counts = { sente: zero(), gote: zero() };
  const other = firstMover === 'sente' ? 'gote' : 'sente';
  for (const p of plies) if (p.judgment) counts[p.ply % 2 === 1 ? firstMover : other][p.judgment] += 1;
  return counts;
}
