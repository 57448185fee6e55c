/** A benchmark's score line over many games between two players: "level 1 vs level 8: 0–10". */
import type { MatchResult } from './match.js';

/** The points `name` scored in `results`: 1 a win, ½ a draw, whichever side it played. */
export function pointsOf(name: string, results: readonly MatchResult[]): number {
  let points = 0;
  for (const r of results) {
    if (r.sente !== name && r.gote !== name) continue;
    if (r.winner === null) points += 0.5;
    else if (r[r.winner] === name) points += 1;
  }
  return points;
}

/** Points as a chess or shogi table writes them: 3, ½, 4½. */
function formatPoints(points: number): string {
  const whole = Math.floor(points);
  const half = points - whole >= 0.5 ? '½' : '';
  return whole === 0 && half !== '' ? half : `${whole}${half}`;
}

/** "a vs b: 3½–6½" over the games between `a` and `b` in `results` (others are left out). */
export function formatTally(a: string, b: string, results: readonly MatchResult[]): string {
  const between = results.filter((r) => (r.sente === a && r.gote === b) || (r.sente === b && r.gote === a));
  return `${a} vs ${b}: ${formatPoints(pointsOf(a, between))}–${formatPoints(pointsOf(b, between))}`;
}
