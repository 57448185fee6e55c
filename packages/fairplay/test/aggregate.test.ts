/**
 * Given an account's assessed games, when they are aggregated, then its verdict follows
 * lishogi's PlayerAggregateAssessment.action (weights: lishogi tcFactor, lila's 1.6 for flat times).
 */
import { describe, expect, it } from 'vitest';
import { type AssessedGame, aggregate, type GameVerdict, weightOf } from '../src/index.js';

const g = (verdict: GameVerdict, over: Partial<AssessedGame> = {}): AssessedGame => ({
  verdict,
  speed: 'rapid',
  acpl: 30,
  blurPercent: 0,
  highlyConsistentMoveTimes: false,
  meanMoveTimeMs: 5000,
  moveTimeSdMs: 3000,
  ...over,
});
const many = (n: number, verdict: GameVerdict, over: Partial<AssessedGame> = {}) =>
  [...Array(n)].map(() => g(verdict, over));
const account = { ratedGames: 40, bestRating: 1800 };

describe('weights (lishogi tcFactor, lila weightedAssessmentValue)', () => {
  it.each([
    ['bullet', false, 1.25],
    ['blitz', false, 1.25],
    ['rapid', false, 1],
    ['classical', false, 0.6],
    ['classical', true, 0.96],
    ['blitz', true, 2],
  ] as const)('a %s game (flat times %s) weighs %d', (speed, flat, weight) => {
    expect(weightOf(g('cheating', { speed, highlyConsistentMoveTimes: flat }))).toBeCloseTo(weight, 10);
  });
});

describe('the account verdict', () => {
  it('is markable with three weighted cheating games making 8 % of its games', () => {
    const games = [...many(3, 'cheating'), ...many(34, 'not_cheating')];
    expect(aggregate(games, account)).toMatchObject({ verdict: 'markable', cheating: 3, weightedCheating: 3 });
  });
  it('is not markable when three cheating games are under 8 % (and likely 16 %): reportable at 5 %', () => {
    const games = [...many(3, 'cheating'), ...many(40, 'not_cheating')];
    expect(aggregate(games, account).verdict).toBe('reportable');
  });
  it('counts the weight: two classical cheating games with flat times weigh 1.92, under three', () => {
    const games = [
      ...many(2, 'cheating', { speed: 'classical', highlyConsistentMoveTimes: true }),
      ...many(5, 'not_cheating'),
    ];
    expect(aggregate(games, account)).toMatchObject({ verdict: 'reportable', weightedCheating: 1.92 });
  });
  it('marks on six weighted cheating or likely games making 16 %', () => {
    const games = [...many(6, 'likely_cheating'), ...many(31, 'not_cheating')];
    expect(aggregate(games, account).verdict).toBe('markable');
  });
  it('leaves a great player (over 2500, 100 rated games) reportable at most', () => {
    const games = [...many(10, 'cheating'), ...many(10, 'not_cheating')];
    expect(aggregate(games, { ratedGames: 100, bestRating: 2501 }).verdict).toBe('reportable');
    expect(aggregate(games, { ratedGames: 99, bestRating: 2501 }).verdict).toBe('markable');
  });
  it('looks at nobody with fewer than two rated games', () => {
    expect(aggregate(many(1, 'cheating'), { ratedGames: 1, bestRating: 1500 }).verdict).toBe('fine');
  });
  it('reports a new account (under 10 rated games) on two cheating or likely games, an older one on four', () => {
    const games = [...many(2, 'likely_cheating'), ...many(3, 'not_cheating')];
    expect(aggregate(games, { ratedGames: 5, bestRating: 1500 }).verdict).toBe('reportable');
    expect(aggregate(games, { ratedGames: 10, bestRating: 1500 }).verdict).toBe('fine');
  });
  it('is fine with no cheating games', () => {
    expect(aggregate(many(30, 'unclear'), account)).toMatchObject({ verdict: 'fine', cheating: 0, likelyCheating: 0 });
  });
  it('reports instead of marking past 50 games when the groups show no difference (lila actionable)', () => {
    // blurred and unblurred games alike in ACPL: the groups do not differ by 10 cp
    const games = [
      ...many(10, 'cheating', { blurPercent: 90, acpl: 20 }),
      ...many(10, 'not_cheating', { blurPercent: 90, acpl: 21 }),
      ...many(40, 'not_cheating', { blurPercent: 0, acpl: 20 }),
    ];
    const result = aggregate(games, { ratedGames: 60, bestRating: 1800 });
    expect(result.actionable).toBe(false);
    expect(result.verdict).toBe('reportable');
  });
});
