/**
 * Given a player's moves, when the signals and flags are computed, then each threshold acts at
 * its source's value (lila/lishogi modules/evaluation; see src/thresholds.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  centipawnLoss,
  type EngineScore,
  flagsOf,
  highestChunkBlurs,
  moveTimeCv,
  type PlayerGame,
  type PlayerMove,
  signalsOf,
  streakCvs,
} from '../src/index.js';

const cp = (value: number): EngineScore => ({ kind: 'cp', value });
const move = (over: Partial<PlayerMove> = {}): PlayerMove => ({
  usi: '7g7f',
  engineChoices: ['7g7f', '2g2f', '5g5f'],
  before: cp(30),
  after: cp(-30),
  timeMs: 5000,
  inByoyomi: false,
  blur: false,
  ...over,
});
const game = (moves: PlayerMove[], over: Partial<PlayerGame> = {}): PlayerGame => ({
  speed: 'blitz',
  clockSeconds: 600,
  won: true,
  moves,
  ...over,
});
// times that vary as a person's do: CV well above 0.4
const human = [3000, 12000, 1500, 25000, 4000, 9000, 700, 18000, 6000, 2500, 30000, 5000, 11000, 800, 7000, 15000];

describe('centipawn loss', () => {
  it('is the score before less the score left, from the mover, never below zero', () => {
    expect(centipawnLoss({ before: cp(100), after: cp(-100) })).toBe(0);
    expect(centipawnLoss({ before: cp(100), after: cp(50) })).toBe(150);
    expect(centipawnLoss({ before: cp(100), after: cp(-300) })).toBe(0);
  });
  it('reads the loss of a move among the engine choices from its own line, not from the next position', () => {
    expect(centipawnLoss({ before: cp(100), after: cp(200), playedLine: cp(80) })).toBe(20);
    expect(centipawnLoss({ before: cp(100), after: cp(200), playedLine: cp(100) })).toBe(0);
  });
  it('caps scores at 1000 cp and counts a mate as the cap (lila Eval.Cp ceiling)', () => {
    expect(centipawnLoss({ before: { kind: 'mate', value: 3 }, after: cp(0) })).toBe(1000);
    expect(centipawnLoss({ before: cp(5000), after: cp(2000) })).toBe(2000);
    expect(centipawnLoss({ before: cp(200), after: { kind: 'mate', value: -2 } })).toBe(0);
  });
});

describe('ACPL against lishogi-as-given thresholds 60/50/40 (issue 47)', () => {
  it.each([
    ['bullet', 59, true],
    ['bullet', 60, false],
    ['blitz', 49, true],
    ['blitz', 50, false],
    ['rapid', 39, true],
    ['classical', 40, false],
  ] as const)('%s with ACPL %i: suspicious error rate %s', (speed, loss, suspicious) => {
    const g = game([move({ before: cp(loss), after: cp(0) })], { speed });
    expect(flagsOf(signalsOf(g), g).suspiciousErrorRate).toBe(suspicious);
  });
});

describe('engine choices', () => {
  it('counts first choices and top-three choices as shares of the moves', () => {
    const g = game([move({ usi: '7g7f' }), move({ usi: '2g2f' }), move({ usi: '5g5f' }), move({ usi: '1g1f' })]);
    const s = signalsOf(g);
    expect(s.firstChoiceShare).toBe(0.25);
    expect(s.topThreeShare).toBe(0.75);
  });
});

describe('the evaluation ever below -100 cp (lila alwaysHasAdvantage)', () => {
  it('holds while the player never stood below -100', () => {
    const g = game([move({ before: cp(-100), after: cp(100) }), move({ before: cp(50), after: cp(-50) })]);
    expect(flagsOf(signalsOf(g), g).alwaysHasAdvantage).toBe(true);
  });
  it('fails once the player stood at -101', () => {
    const g = game([move({ before: cp(-101), after: cp(101) })]);
    expect(signalsOf(g).lowestEvalCp).toBe(-101);
    expect(flagsOf(signalsOf(g), g).alwaysHasAdvantage).toBe(false);
  });
});

describe('move-time consistency (lila/lishogi Statistics)', () => {
  it('pads every time by 0.1 s and drops the first move', () => {
    expect(moveTimeCv([99_999, 900, 900, 900])).toBe(0);
    expect(moveTimeCv([0, 0, 200])).toBeCloseTo(0.5, 10); // 100 and 300: sd 100, mean 200
  });
  it('flags highly consistent times under CV 0.25 and moderately under 0.4, only over a 60 s clock', () => {
    const flat = [5000, 5200, 4800, 5100, 4900, 5000, 5050, 4950].map((t) => move({ timeMs: t }));
    expect(flagsOf(signalsOf(game(flat)), game(flat))).toMatchObject({
      highlyConsistentMoveTimes: true,
      moderatelyConsistentMoveTimes: true,
    });
    const short = game(flat, { clockSeconds: 60 });
    expect(flagsOf(signalsOf(short), short).highlyConsistentMoveTimes).toBe(false);
    const varied = game(human.map((t) => move({ timeMs: t })));
    expect(flagsOf(signalsOf(varied), varied)).toMatchObject({
      highlyConsistentMoveTimes: false,
      moderatelyConsistentMoveTimes: false,
    });
  });
  it('reads only the moves before byoyomi', () => {
    const moves = [
      ...[5000, 5100, 4900, 5000, 5050].map((t) => move({ timeMs: t })),
      ...[29_000, 1000, 29_500, 800].map((t) => move({ timeMs: t, inByoyomi: true })),
    ];
    expect(signalsOf(game(moves)).moveTimeCv).toBeLessThan(0.05);
  });
  it('finds a flat 14-move streak inside varied times (lishogi: 14 moves, extremes dropped, CV under 0.14)', () => {
    const streak = [4000, 4100, 3900, 4050, 3950, 4000, 4020, 3980, 4010, 3990, 4000, 60_000, 10, 4000];
    expect(Math.min(...streakCvs(streak))).toBeLessThan(0.14);
    const g = game([...human, ...streak].map((t) => move({ timeMs: t })));
    const s = signalsOf(g);
    expect(s.moveTimeCv).toBeGreaterThan(0.4);
    expect(flagsOf(s, g).highlyConsistentMoveTimes).toBe(true);
  });
  it('skips a streak with four instantaneous moves', () => {
    expect(streakCvs([0, 0, 0, 0, 0, 4000, 4000, 4000, 4000, 4000, 4000, 4000, 4000, 4000])).toEqual([]);
  });
});

describe('fast moves (lila: under 0.5 s, at most moves / 20 + 2)', () => {
  it('allows two fast moves in 20 and not three', () => {
    const two = game([...Array(18)].map(() => move()).concat([move({ timeMs: 499 }), move({ timeMs: 100 })]));
    expect(signalsOf(two).fastMoves).toBe(2);
    expect(flagsOf(signalsOf(two), two).noFastMoves).toBe(true);
    // 20 moves allow 20/20 + 2 = 3
    const four = game([...Array(16)].map(() => move()).concat([...Array(4)].map(() => move({ timeMs: 0 }))));
    expect(flagsOf(signalsOf(four), four).noFastMoves).toBe(false);
    const atHalfSecond = game([...Array(5)].map(() => move({ timeMs: 500 })));
    expect(signalsOf(atHalfSecond).fastMoves).toBe(0);
  });
});

describe('blur (lila: over 90 % high, over 70 % moderate; 11 or 8 of 12 in a row)', () => {
  const blurred = (n: number, of: number) => [...Array(of)].map((_, i) => move({ blur: i < n }));
  // five moves: no chunk reaches 8, so only the rate decides
  it.each([
    [5, true, true],
    [4, false, true],
    [3, false, false],
  ])('%i of 5 moves blurred: high %s, moderate %s', (n, high, moderate) => {
    const g = game(blurred(n, 5));
    expect(flagsOf(signalsOf(g), g)).toMatchObject({ highBlurRate: high, moderateBlurRate: moderate });
  });
  it('flags a chunk of 8 blurred moves in a long game whose rate is low', () => {
    const moves = [...Array(60)].map((_, i) => move({ blur: i >= 20 && i < 28 }));
    const g = game(moves);
    expect(signalsOf(g).blurPercent).toBe(13);
    expect(highestChunkBlurs(moves.map((m) => m.blur))).toBe(8);
    expect(flagsOf(signalsOf(g), g)).toMatchObject({ moderateBlurRate: true, highBlurRate: false });
  });
});
