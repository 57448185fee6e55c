import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CONFIG,
  expectedScore,
  idlePeriod,
  isProvisional,
  NEW_PLAYER,
  type Rating,
  rateGame,
  ratePeriod,
  type Score,
} from '../src/index.js';

describe('the worked example of the Glicko-2 paper', () => {
  // Source: Mark E. Glickman, "Example of the Glicko-2 system", http://www.glicko.net/glicko/glicko2.pdf
  // (τ = 0.5 there): the player's new rating r' = 1464.06, RD' = 151.52, σ' = 0.05999.
  const player: Rating = { rating: 1500, deviation: 200, volatility: 0.06 };
  const opponent = (rating: number, deviation: number): Rating => ({ rating, deviation, volatility: 0.06 });
  const after = ratePeriod(
    player,
    [
      { opponent: opponent(1400, 30), score: 1 },
      { opponent: opponent(1550, 100), score: 0 },
      { opponent: opponent(1700, 300), score: 0 },
    ],
    { ...DEFAULT_CONFIG, tau: 0.5 },
  );

  // The paper rounds its intermediate values (μ' = −0.2069, φ' = 0.8722, then r' = 1464.06);
  // unrounded arithmetic gives r' = 1464.0507 and σ' = 0.0599960, so the figures are checked
  // to the paper's precision on the Glicko-2 scale and to within its rounding on the other.
  it("gives μ' = −0.2069 and φ' = 0.8722 (step 7)", () => {
    expect((after.rating - 1500) / 173.7178).toBeCloseTo(-0.2069, 4);
    expect(after.deviation / 173.7178).toBeCloseTo(0.8722, 4);
  });
  it('gives the rating about 1464.06', () => expect(Math.abs(after.rating - 1464.06)).toBeLessThan(0.01));
  it('gives the deviation about 151.52', () => expect(Math.abs(after.deviation - 151.52)).toBeLessThan(0.01));
  it('gives the volatility about 0.05999', () => expect(Math.abs(after.volatility - 0.05999)).toBeLessThan(0.00001));
  it('matches the paper expected scores E = 0.639, 0.432, 0.303 (step 3)', () => {
    expect(expectedScore(player, opponent(1400, 30))).toBeCloseTo(0.639, 3);
    expect(expectedScore(player, opponent(1550, 100))).toBeCloseTo(0.432, 3);
    expect(expectedScore(player, opponent(1700, 300))).toBeCloseTo(0.303, 3);
  });
});

describe('players and periods', () => {
  it('starts a new player at 1500 / 350 / 0.06, provisional', () => {
    expect(NEW_PLAYER).toEqual({ rating: 1500, deviation: 350, volatility: 0.06 });
    expect(isProvisional(NEW_PLAYER)).toBe(true);
  });
  it('is provisional above RD 110 only', () => {
    expect(isProvisional({ ...NEW_PLAYER, deviation: 110.01 })).toBe(true);
    expect(isProvisional({ ...NEW_PLAYER, deviation: 110 })).toBe(false);
    expect(isProvisional({ ...NEW_PLAYER, deviation: 60 })).toBe(false);
  });
  it('grows the deviation of an idle player by the volatility: φ* = √(φ² + σ²)', () => {
    const p: Rating = { rating: 1700, deviation: 50, volatility: 0.06 };
    const idle = idlePeriod(p);
    expect(idle.rating).toBe(1700);
    expect(idle.volatility).toBe(0.06);
    // φ = 50 / 173.7178; φ* · 173.7178
    const phi = 50 / 173.7178;
    expect(idle.deviation).toBeCloseTo(173.7178 * Math.sqrt(phi * phi + 0.06 * 0.06), 9);
    expect(idle.deviation).toBeGreaterThan(50);
  });
  it('grows the deviation over n idle periods as √(φ² + n·σ²), the same as n single periods', () => {
    const p: Rating = { rating: 1700, deviation: 50, volatility: 0.06 };
    let stepwise = p;
    for (let i = 0; i < 4; i += 1) stepwise = idlePeriod(stepwise);
    expect(idlePeriod(p, 4).deviation).toBeCloseTo(stepwise.deviation, 9);
    expect(idlePeriod(p, 0)).toEqual(p);
  });
  it('treats a game whose result was certain as no game (no division by zero)', () => {
    const giant: Rating = { rating: 100_000, deviation: 30, volatility: 0.06 };
    const after = rateGame(giant, NEW_PLAYER, 1).a;
    expect(after).toEqual(idlePeriod(giant));
  });
  it('never lets an idle deviation grow past a newcomer’s 350', () => {
    let p: Rating = { rating: 1700, deviation: 340, volatility: 0.06 };
    for (let i = 0; i < 100; i += 1) p = idlePeriod(p);
    expect(p.deviation).toBe(350);
  });
  it('gives two new players +/- the same points after a decisive game', () => {
    const { a, b } = rateGame(NEW_PLAYER, NEW_PLAYER, 1);
    expect(a.rating - 1500).toBeCloseTo(1500 - b.rating, 9);
    expect(a.rating).toBeGreaterThan(1600);
    expect(a.deviation).toBeLessThan(350);
  });
  it('leaves equal players where they are after a draw', () => {
    const { a, b } = rateGame(NEW_PLAYER, NEW_PLAYER, 0.5);
    expect(a.rating).toBeCloseTo(1500, 9);
    expect(b.rating).toBeCloseTo(1500, 9);
  });
  it('rates a period of several games against the ratings at its start', () => {
    const opp: Rating = { rating: 1500, deviation: 80, volatility: 0.06 };
    const won = ratePeriod(NEW_PLAYER, [
      { opponent: opp, score: 1 },
      { opponent: opp, score: 1 },
    ]);
    const once = ratePeriod(NEW_PLAYER, [{ opponent: opp, score: 1 }]);
    expect(won.rating).toBeGreaterThan(once.rating);
    expect(won.deviation).toBeLessThan(once.deviation);
  });
});

// Ratings as they occur on a server: 600..2800, RD from an established 45 to a newcomer's 350.
const rating = fc.record({
  rating: fc.double({ min: 600, max: 2800, noNaN: true }),
  deviation: fc.double({ min: 45, max: 350, noNaN: true }),
  volatility: fc.double({ min: 0.03, max: 0.1, noNaN: true }),
});
const score = fc.constantFrom<Score>(1, 0.5, 0);

describe('properties of one game', () => {
  it('moves each rating toward the result: up on a win, down on a loss, toward the opponent on a draw', () => {
    fc.assert(
      fc.property(rating, rating, score, (a, b, s) => {
        const after = rateGame(a, b, s).a;
        const surprise = s - expectedScore(a, b);
        // μ' − μ = φ'² g(φj)(s − E): the same sign as s − E (up to rounding near zero)
        if (surprise > 1e-9) expect(after.rating).toBeGreaterThan(a.rating);
        if (surprise < -1e-9) expect(after.rating).toBeLessThan(a.rating);
      }),
    );
  });
  it('never takes points from the winner nor gives points to the loser', () => {
    fc.assert(
      fc.property(rating, rating, (a, b) => {
        const after = rateGame(a, b, 1);
        expect(after.a.rating).toBeGreaterThanOrEqual(a.rating);
        expect(after.b.rating).toBeLessThanOrEqual(b.rating);
      }),
    );
  });
  it('is symmetric: a beating b is b losing to a', () => {
    fc.assert(
      fc.property(rating, rating, score, (a, b, s) => {
        const forward = rateGame(a, b, s);
        const backward = rateGame(b, a, (1 - s) as Score);
        expect(backward.a).toEqual(forward.b);
        expect(backward.b).toEqual(forward.a);
      }),
    );
  });
  it('gives opposite changes to players of equal deviation and volatility', () => {
    fc.assert(
      fc.property(rating, fc.double({ min: 600, max: 2800, noNaN: true }), score, (a, rb, s) => {
        const b = { ...a, rating: rb };
        const after = rateGame(a, b, s);
        expect(after.a.rating - a.rating).toBeCloseTo(b.rating - after.b.rating, 6);
      }),
    );
  });
  it('never leaves the deviation above what sitting the period out would give', () => {
    // Step 7: 1/φ'² = 1/φ*² + 1/v, so φ' < φ* with φ* = √(φ² + σ'²).
    fc.assert(
      fc.property(rating, rating, score, (a, b, s) => {
        const after = rateGame(a, b, s).a;
        const phi = a.deviation / 173.7178;
        const phiStar = 173.7178 * Math.sqrt(phi * phi + after.volatility * after.volatility);
        expect(after.deviation).toBeLessThan(phiStar);
      }),
    );
  });
  it('never increases the deviation of a player with RD ≥ 110 who meets an opponent within 400 points', () => {
    // Glicko-2 has no unconditional guarantee: RD' < RD needs 1/v > 1/φ*² − 1/φ², and an
    // established player (RD near its floor, about 60 with τ = 0.75 and one game per period)
    // gains a little RD from the volatility; so does anyone playing a far weaker or stronger
    // opponent (v grows as E(1 − E) shrinks). Above the provisional line, against a
    // reasonable pairing, playing always makes the rating more certain.
    const provisional = fc.record({
      rating: fc.double({ min: 1000, max: 2400, noNaN: true }),
      deviation: fc.double({ min: 110, max: 350, noNaN: true }),
      volatility: fc.double({ min: 0.03, max: 0.09, noNaN: true }),
    });
    fc.assert(
      fc.property(provisional, rating, fc.double({ min: -400, max: 400, noNaN: true }), score, (a, opp, diff, s) => {
        const b = { ...opp, rating: a.rating + diff };
        expect(rateGame(a, b, s).a.deviation).toBeLessThanOrEqual(a.deviation);
      }),
    );
  });
});
