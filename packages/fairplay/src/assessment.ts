/**
 * A player's verdict in one game: lila's GameAssessment by its rule table (Assessible.rankCheating),
 * first matching row wins, then lishogi's demotion when the player did not win the game.
 */
import type { Flags } from './signals.js';

/** lila's GameAssessment, weakest first (its ids 1..5). */
export const GAME_VERDICTS = ['not_cheating', 'unlikely_cheating', 'unclear', 'likely_cheating', 'cheating'] as const;
export type GameVerdict = (typeof GAME_VERDICTS)[number];

type Want = boolean | undefined;
/** A row: each flag true, false or either (undefined), in lila's column order. */
export interface Rule {
  readonly when: {
    readonly suspiciousErrorRate?: Want;
    readonly alwaysHasAdvantage?: Want;
    readonly highBlurRate?: Want;
    readonly moderateBlurRate?: Want;
    readonly highlyConsistentMoveTimes?: Want;
    readonly moderatelyConsistentMoveTimes?: Want;
    readonly noFastMoves?: Want;
  };
  readonly verdict: GameVerdict;
  readonly why: string;
}

/**
 * lila/lishogi Assessible.rankCheating's table without the hold-alert rows (no client here
 * reports holds). Order matters: the first row that matches decides.
 */
export const RULES: readonly Rule[] = [
  {
    when: { suspiciousErrorRate: true, highBlurRate: true, noFastMoves: true },
    verdict: 'cheating',
    why: 'high accuracy, high blurs, no fast moves',
  },
  {
    when: { suspiciousErrorRate: true, moderateBlurRate: true },
    verdict: 'cheating',
    why: 'high accuracy, moderate blurs',
  },
  {
    when: { suspiciousErrorRate: true, highlyConsistentMoveTimes: true },
    verdict: 'cheating',
    why: 'high accuracy, highly consistent move times',
  },
  {
    when: { highBlurRate: true, highlyConsistentMoveTimes: true },
    verdict: 'cheating',
    why: 'high blurs, highly consistent move times',
  },
  {
    when: { moderateBlurRate: true, moderatelyConsistentMoveTimes: true },
    verdict: 'likely_cheating',
    why: 'moderate blurs, consistent move times',
  },
  { when: { highlyConsistentMoveTimes: true }, verdict: 'likely_cheating', why: 'very consistent move times' },
  {
    when: { alwaysHasAdvantage: true, highBlurRate: true },
    verdict: 'likely_cheating',
    why: 'always has advantage, high blurs',
  },
  {
    when: { alwaysHasAdvantage: true, moderatelyConsistentMoveTimes: true, noFastMoves: true },
    verdict: 'unclear',
    why: 'always has advantage, consistent move times',
  },
  {
    when: { suspiciousErrorRate: true, moderatelyConsistentMoveTimes: true, noFastMoves: true },
    verdict: 'unclear',
    why: 'high accuracy, consistent move times, no fast moves',
  },
  {
    when: {
      suspiciousErrorRate: true,
      moderateBlurRate: false,
      moderatelyConsistentMoveTimes: false,
      noFastMoves: true,
    },
    verdict: 'unclear',
    why: 'high accuracy, no fast moves, but no blurs or flat times',
  },
  {
    when: { suspiciousErrorRate: true, noFastMoves: false },
    verdict: 'unlikely_cheating',
    why: 'high accuracy, but has fast moves',
  },
];

const matches = (rule: Rule, flags: Flags): boolean =>
  Object.entries(rule.when).every(([flag, want]) => want === undefined || flags[flag as keyof Flags] === want);

export interface GameAssessment {
  readonly verdict: GameVerdict;
  /** the row that decided, or null when none matched (not cheating) */
  readonly why: string | null;
}

/**
 * The verdict; a player who did not win is taken one step down from cheating and likely
 * cheating (lishogi's rankCheating: Cheating becomes LikelyCheating, LikelyCheating Unclear).
 */
export function assessGame(flags: Flags, won: boolean): GameAssessment {
  const rule = RULES.find((r) => matches(r, flags));
  if (rule === undefined) return { verdict: 'not_cheating', why: null };
  if (won) return { verdict: rule.verdict, why: rule.why };
  const demoted =
    rule.verdict === 'cheating' ? 'likely_cheating' : rule.verdict === 'likely_cheating' ? 'unclear' : rule.verdict;
  return { verdict: demoted, why: `${rule.why}${demoted === rule.verdict ? '' : ' (not won: one step down)'}` };
}
