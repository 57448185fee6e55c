/**
 * Given a player's flags, when the game is assessed, then the verdict is lila's
 * Assessible.rankCheating's row, demoted one step for a player who did not win (lishogi).
 */
import { describe, expect, it } from 'vitest';
import { assessGame, type Flags } from '../src/index.js';

const none: Flags = {
  suspiciousErrorRate: false,
  alwaysHasAdvantage: false,
  highBlurRate: false,
  moderateBlurRate: false,
  highlyConsistentMoveTimes: false,
  moderatelyConsistentMoveTimes: false,
  noFastMoves: false,
};
const f = (over: Partial<Flags>): Flags => ({ ...none, ...over });

describe('the rule table (lila/lishogi Assessible.rankCheating)', () => {
  it.each([
    [
      'high accuracy, high blurs, no fast moves',
      f({ suspiciousErrorRate: true, highBlurRate: true, noFastMoves: true }),
      'cheating',
    ],
    ['high accuracy, moderate blurs', f({ suspiciousErrorRate: true, moderateBlurRate: true }), 'cheating'],
    [
      'high accuracy, highly consistent times',
      f({ suspiciousErrorRate: true, highlyConsistentMoveTimes: true }),
      'cheating',
    ],
    ['high blurs, highly consistent times', f({ highBlurRate: true, highlyConsistentMoveTimes: true }), 'cheating'],
    [
      'moderate blurs, consistent times',
      f({ moderateBlurRate: true, moderatelyConsistentMoveTimes: true }),
      'likely_cheating',
    ],
    ['very consistent times alone', f({ highlyConsistentMoveTimes: true }), 'likely_cheating'],
    ['always ahead, high blurs', f({ alwaysHasAdvantage: true, highBlurRate: true }), 'likely_cheating'],
    [
      'always ahead, consistent times, no fast moves',
      f({ alwaysHasAdvantage: true, moderatelyConsistentMoveTimes: true, noFastMoves: true }),
      'unclear',
    ],
    [
      'high accuracy, consistent times, no fast moves',
      f({ suspiciousErrorRate: true, moderatelyConsistentMoveTimes: true, noFastMoves: true }),
      'unclear',
    ],
    [
      'high accuracy, no fast moves, no blur, no flat times',
      f({ suspiciousErrorRate: true, noFastMoves: true }),
      'unclear',
    ],
    ['high accuracy with fast moves', f({ suspiciousErrorRate: true }), 'unlikely_cheating'],
    ['always ahead alone', f({ alwaysHasAdvantage: true }), 'not_cheating'],
    ['nothing', none, 'not_cheating'],
  ] as const)('given %s, a winner is %s', (_name, flags, verdict) => {
    expect(assessGame(flags, true).verdict).toBe(verdict);
  });
  it('takes the first row that matches: high blurs with high accuracy and no fast moves is cheating, not unclear', () => {
    expect(
      assessGame(f({ suspiciousErrorRate: true, highBlurRate: true, moderateBlurRate: true, noFastMoves: true }), true),
    ).toEqual({
      verdict: 'cheating',
      why: 'high accuracy, high blurs, no fast moves',
    });
  });
});

describe('a player who did not win (lishogi rankCheating)', () => {
  it('is one step down from cheating and likely cheating, and no further', () => {
    expect(assessGame(f({ suspiciousErrorRate: true, highlyConsistentMoveTimes: true }), false).verdict).toBe(
      'likely_cheating',
    );
    expect(assessGame(f({ highlyConsistentMoveTimes: true }), false).verdict).toBe('unclear');
    expect(assessGame(f({ suspiciousErrorRate: true }), false).verdict).toBe('unlikely_cheating');
  });
});
