/**
 * Rating refunds to a marked account's victims, as lila's RatingRefund computes them: its
 * rated games of the last days where a non-provisional opponent lost points, summed per
 * victim and category, then what the victim gets back, 0 to 150 points.
 */
import { REFUND } from './thresholds.js';

/** One rated game of the marked account, from its opponent's side. */
export interface VictimGame {
  readonly victimId: string;
  readonly category: string;
  /** the opponent's rating before the game, and its change (negative: points lost) */
  readonly ratingBefore: number;
  readonly ratingDiff: number;
  /** the opponent's deviation was provisional before the game */
  readonly provisional: boolean;
  readonly endedAt: string;
}

export interface Refund {
  readonly victimId: string;
  readonly category: string;
  /** points lost to the marked account in these games */
  readonly lost: number;
  /** the highest rating the victim had before any of them */
  readonly topRating: number;
}

/** lila's makeRefunds: the games within `REFUND.days` of `now` where a settled opponent lost points. */
export function refundsOf(games: readonly VictimGame[], now: Date): Refund[] {
  const since = now.getTime() - REFUND.days * 24 * 3600 * 1000;
  const out = new Map<string, Refund>();
  for (const g of games) {
    if (g.provisional || g.ratingDiff >= 0 || Date.parse(g.endedAt) < since) continue;
    const key = `${g.victimId}\u0000${g.category}`;
    const had = out.get(key);
    out.set(key, {
      victimId: g.victimId,
      category: g.category,
      lost: (had?.lost ?? 0) - g.ratingDiff,
      topRating: Math.max(had?.topRating ?? g.ratingBefore, g.ratingBefore),
    });
  }
  return [...out.values()].sort((a, b) => (a.victimId + a.category).localeCompare(b.victimId + b.category));
}

/**
 * lila's pointsToRefund: the points lost, less half of what the victim stands above its top
 * rating since (it regained some already), at most its highest rating less the current one
 * plus 20 (100 when unknown), between 0 and 150.
 */
export function pointsToRefund(refund: Refund, currentRating: number, highest: number | null): number {
  const regained = Math.max(0, refund.lost + currentRating - refund.topRating);
  const points = Math.min(
    refund.lost - Math.trunc(regained / 2),
    highest === null ? 100 : highest - currentRating + 20,
  );
  return Math.max(0, Math.min(REFUND.maxPoints, Math.round(points)));
}
