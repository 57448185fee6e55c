/**
 * RD growth with idle time (lichess's fractional rating periods) and who is on a
 * leaderboard. Expected values are the formula φ' = √(φ² + t·σ²) on the Glicko-2 scale,
 * t = days · 0.21436, evaluated by hand (a calculator), not by the code under test.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isOnLeaderboard,
  isProvisional,
  LEADERBOARD_ACTIVE_DAYS,
  leaderboardActiveSince,
  NEW_PLAYER,
  RATING_PERIODS_PER_DAY,
  type Rating,
  rateGame,
  ratingAt,
  ratingPeriodsBetween,
} from '../src/index.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);
const days = (n: number): string => new Date(T0 + n * DAY).toISOString();
const settled: Rating = { rating: 1800, deviation: 60, volatility: 0.06 };

describe('ratingPeriodsBetween', () => {
  it('counts lichess’s 0.21436 periods a day (one about every 4.67 days)', () => {
    expect(RATING_PERIODS_PER_DAY).toBe(0.21436);
    expect(ratingPeriodsBetween(days(0), days(1))).toBeCloseTo(0.21436, 12);
    expect(ratingPeriodsBetween(days(0), days(365))).toBeCloseTo(78.2414, 9);
    expect(ratingPeriodsBetween(T0, new Date(T0 + 12 * 3600_000))).toBeCloseTo(0.10718, 12);
  });
  it('is 0 for no time, time running backwards, or a non-time', () => {
    expect(ratingPeriodsBetween(days(3), days(3))).toBe(0);
    expect(ratingPeriodsBetween(days(3), days(1))).toBe(0);
    expect(ratingPeriodsBetween('not a time', days(1))).toBe(0);
  });
});

describe('ratingAt: the deviation grown by idle time', () => {
  it.each([
    // [RD, σ, days idle, RD' = 173.7178 · √((RD / 173.7178)² + days · 0.21436 · σ²)]
    [50, 0.06, 1, 50.2323416],
    [60, 0.06, 10, 61.9102693],
    [200, 0.06, 30, 201.7390501],
    [100, 0.09, 100, 123.4497167],
    // lila's comment on the constant: "a typical player's RD goes from 60 -> 110 in 1 year"
    [60, 0.06, 365, 110.0007855],
  ])('RD %d, σ %d, %d days idle → RD %d', (deviation, volatility, d, expected) => {
    const after = ratingAt({ rating: 1700, deviation, volatility }, days(0), days(d));
    expect(after.deviation).toBeCloseTo(expected, 6);
    expect(after.rating).toBe(1700);
    expect(after.volatility).toBe(volatility);
  });
  it('changes nothing without elapsed time (the same object back)', () => {
    expect(ratingAt(settled, days(5), days(5))).toBe(settled);
    expect(ratingAt(settled, days(5), days(2))).toBe(settled); // a game ended before the previous one
  });
  it('caps a long absence at a newcomer’s 350', () => {
    // from 60 it takes ((350/173.7178)² − (60/173.7178)²) / (0.06² · 0.21436) ≈ 5106 days
    expect(ratingAt(settled, days(0), days(5000)).deviation).toBeLessThan(350);
    expect(ratingAt(settled, days(0), days(5200)).deviation).toBe(350);
    expect(ratingAt(settled, days(0), days(100_000)).deviation).toBe(350);
    expect(ratingAt(NEW_PLAYER, days(0), days(1)).deviation).toBe(350);
  });
  it('is monotone in time, and two stretches of idle time make one', () => {
    const rating = fc.record({
      rating: fc.double({ min: 600, max: 2800, noNaN: true }),
      deviation: fc.double({ min: 45, max: 350, noNaN: true }),
      volatility: fc.double({ min: 0.03, max: 0.1, noNaN: true }),
    });
    const ms = fc.integer({ min: 0, max: 20 * 365 * DAY });
    fc.assert(
      fc.property(rating, ms, ms, (r, a, b) => {
        const [early, late] = a <= b ? [a, b] : [b, a];
        const e = ratingAt(r, T0, T0 + early);
        const l = ratingAt(r, T0, T0 + late);
        expect(e.deviation).toBeGreaterThanOrEqual(r.deviation);
        expect(l.deviation).toBeGreaterThanOrEqual(e.deviation);
        expect(ratingAt(e, T0 + early, T0 + late).deviation).toBeCloseTo(l.deviation, 9);
      }),
    );
  });
  it('makes the comeback game count more: a larger RD moves the rating further', () => {
    const opponent: Rating = { rating: 1800, deviation: 60, volatility: 0.06 };
    const active = rateGame(settled, opponent, 1).a;
    const back = rateGame(ratingAt(settled, days(0), days(365)), opponent, 1).a;
    expect(back.rating - settled.rating).toBeGreaterThan(1.5 * (active.rating - settled.rating));
  });
  it('turns a settled rating provisional after about a year off', () => {
    expect(isProvisional(ratingAt(settled, days(0), days(360)))).toBe(false);
    expect(isProvisional(ratingAt(settled, days(0), days(366)))).toBe(true);
  });
});

describe('isOnLeaderboard', () => {
  it(`needs a rated game in the last ${LEADERBOARD_ACTIVE_DAYS} days`, () => {
    expect(LEADERBOARD_ACTIVE_DAYS).toBe(30);
    expect(leaderboardActiveSince(days(40)).toISOString()).toBe(days(10));
    expect(isOnLeaderboard(settled, days(10), days(40))).toBe(true);
    expect(isOnLeaderboard(settled, days(10), new Date(T0 + 40 * DAY + 1))).toBe(false);
    expect(isOnLeaderboard(settled, days(0), days(0))).toBe(true);
  });
  it('needs the RD grown to now to be at most 110', () => {
    // RD 108, σ 0.06: 173.7178 · √((108/173.7178)² + d · 0.21436 · 0.06²) = 109.07 after
    // 10 days, 110.66 after 25: off the leaderboard before the 30 days are up
    const edge: Rating = { rating: 2000, deviation: 108, volatility: 0.06 };
    expect(ratingAt(edge, days(0), days(10)).deviation).toBeCloseTo(109.07, 2);
    expect(ratingAt(edge, days(0), days(25)).deviation).toBeCloseTo(110.66, 2);
    expect(isOnLeaderboard(edge, days(0), days(10))).toBe(true);
    expect(isOnLeaderboard(edge, days(0), days(25))).toBe(false);
    expect(isOnLeaderboard({ ...edge, deviation: 111 }, days(0), days(0))).toBe(false);
  });
});
