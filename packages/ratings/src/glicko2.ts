/**
 * Glicko-2, exactly as in Mark Glickman, "Example of the Glicko-2 system"
 * (http://www.glicko.net/glicko/glicko2.pdf): steps 1 to 8 of a rating period, with the
 * Illinois algorithm for the new volatility (step 5.1–5.5). Pure functions on plain
 * values; no I/O, no clock.
 *
 * Online servers rate each game as its own rating period (`rateGame`), so a player's
 * deviation rises a little between games through the volatility and falls with each game;
 * idle time between games grows it further (`ratingAt`, lichess's fractional rating periods).
 */

/** A player's rating on the Glicko scale (the one shown to people). */
export interface Rating {
  readonly rating: number;
  /** RD, the rating deviation. */
  readonly deviation: number;
  /** σ, the expected fluctuation of the rating. */
  readonly volatility: number;
}

export interface Glicko2Config {
  /** τ, how much the volatility may change in a period; the paper suggests 0.3 to 1.2. */
  readonly tau: number;
  /** Convergence tolerance of the volatility iteration (the paper's ε). */
  readonly epsilon: number;
  /**
   * The highest deviation a player can reach: the deviation of a new player. The paper
   * has no cap; Glickman's Glicko-1 paper caps RD at 350 for unrated players, and servers
   * do the same so a long absence never makes a player less known than a newcomer.
   */
  readonly maxDeviation: number;
}

export const DEFAULT_CONFIG: Glicko2Config = { tau: 0.75, epsilon: 0.000001, maxDeviation: 350 };

/** A new player (issue 5 and the paper's step 1): 1500, RD 350, volatility 0.06. */
export const NEW_PLAYER: Rating = { rating: 1500, deviation: 350, volatility: 0.06 };

/** The outcome of a game for one side: win 1, draw 0.5, loss 0. */
export const SCORES = [1, 0.5, 0] as const;
export type Score = (typeof SCORES)[number];

/** One game of a rating period, from the rated player's side. */
export interface PeriodGame {
  readonly opponent: Rating;
  readonly score: Score;
}

/** The Glicko-2 scale factor (the paper's step 2: 173.7178 = 400 / ln 10). */
const SCALE = 173.7178;
const BASE = 1500;

const toMu = (rating: number): number => (rating - BASE) / SCALE;
const toPhi = (deviation: number): number => deviation / SCALE;

/** g(φ) of the paper's step 3. */
const g = (phi: number): number => 1 / Math.sqrt(1 + (3 * phi * phi) / (Math.PI * Math.PI));

/** E(μ, μj, φj) of the paper's step 3: the expected score against opponent j. */
const e = (mu: number, muJ: number, phiJ: number): number => 1 / (1 + Math.exp(-g(phiJ) * (mu - muJ)));

/**
 * The expected score of `a` against `b` (the paper's E, with b's deviation): for
 * "observed score vs expectation" statistics. Not symmetric when the deviations differ:
 * `expectedScore(a, b) + expectedScore(b, a)` is 1 only if both deviations are equal.
 */
export const expectedScore = (a: Rating, b: Rating): number => e(toMu(a.rating), toMu(b.rating), toPhi(b.deviation));

/**
 * Step 5: the new volatility σ', found as the root of f by the Illinois algorithm
 * (a regula falsi that halves the stale end's value). `delta2` is Δ², `phi2` φ², `v` v.
 */
const newVolatility = (sigma: number, phi2: number, v: number, delta2: number, config: Glicko2Config): number => {
  const { tau, epsilon } = config;
  // 5.1
  const a = Math.log(sigma * sigma);
  const f = (x: number): number => {
    const ex = Math.exp(x);
    const d = phi2 + v + ex;
    return (ex * (delta2 - phi2 - v - ex)) / (2 * d * d) - (x - a) / (tau * tau);
  };
  // 5.2: bracket the root between A and B
  let A = a;
  let B: number;
  if (delta2 > phi2 + v) {
    B = Math.log(delta2 - phi2 - v);
  } else {
    let k = 1;
    while (f(a - k * tau) < 0) k += 1;
    B = a - k * tau;
  }
  // 5.3
  let fA = f(A);
  let fB = f(B);
  // 5.4: the iteration converges in a handful of steps; the cap only guards against a bug
  for (let i = 0; i < 1000 && Math.abs(B - A) > epsilon; i += 1) {
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else {
      fA /= 2;
    }
    B = C;
    fB = fC;
  }
  // 5.5
  return Math.exp(A / 2);
};

const fromScale = (mu: number, phi: number, volatility: number, config: Glicko2Config): Rating => ({
  rating: SCALE * mu + BASE,
  deviation: Math.min(SCALE * phi, config.maxDeviation),
  volatility,
});

/**
 * A player's rating after one rating period in which they played `games` (steps 1–8),
 * or, with no games, after a period of absence: only the deviation grows (the paper's
 * remark after step 6: φ' = √(φ² + σ²)), capped at `maxDeviation`.
 * Every game is rated against the opponents' ratings at the start of the period.
 */
export function ratePeriod(
  player: Rating,
  games: readonly PeriodGame[],
  config: Glicko2Config = DEFAULT_CONFIG,
): Rating {
  // step 2
  const mu = toMu(player.rating);
  const phi = toPhi(player.deviation);
  const sigma = player.volatility;
  if (games.length === 0) return idlePeriod(player, 1, config);

  // steps 3 and 4: v, and the sum that makes Δ = v · sum
  let inverseV = 0;
  let sum = 0;
  for (const { opponent, score } of games) {
    const muJ = toMu(opponent.rating);
    const phiJ = toPhi(opponent.deviation);
    const gJ = g(phiJ);
    const eJ = e(mu, muJ, phiJ);
    inverseV += gJ * gJ * eJ * (1 - eJ);
    sum += gJ * (score - eJ);
  }
  // Games whose result was certain (E rounds to 0 or 1 for absurd rating gaps) carry no
  // information: the period counts as one without games rather than dividing by zero.
  if (inverseV === 0) return idlePeriod(player, 1, config);
  const v = 1 / inverseV;
  const delta = v * sum;

  // step 5
  const sigmaPrime = newVolatility(sigma, phi * phi, v, delta * delta, config);
  // step 6: the pre-period deviation
  const phiStar = Math.sqrt(phi * phi + sigmaPrime * sigmaPrime);
  // step 7
  const phiPrime = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  const muPrime = mu + phiPrime * phiPrime * sum;
  // step 8
  return fromScale(muPrime, phiPrime, sigmaPrime, config);
}

/**
 * `periods` rating periods without games (a fraction is allowed, for servers that measure
 * absence in days): the deviation grows as φ' = √(φ² + n·σ²), capped at `maxDeviation`.
 */
export function idlePeriod(player: Rating, periods = 1, config: Glicko2Config = DEFAULT_CONFIG): Rating {
  const phi = toPhi(player.deviation);
  const sigma = player.volatility;
  // the rating does not move: kept as given rather than sent through the scale and back
  return {
    rating: player.rating,
    deviation: Math.min(SCALE * Math.sqrt(phi * phi + Math.max(0, periods) * sigma * sigma), config.maxDeviation),
    volatility: sigma,
  };
}

/**
 * Rating periods per day of idle time, lichess's `ratingPeriodsPerDay = 0.21436d` in
 * lichess-org/lila, modules/rating/src/main/Glicko.scala ("Chosen so a typical player's RD
 * goes from 60 -> 110 in 1 year"; its RatingCalculator's `previewDeviation` turns the time
 * since the player's last rating period into `elapsedRatingPeriods` with it): one period
 * about every 4.67 days.
 */
export const RATING_PERIODS_PER_DAY = 0.21436;

export const MS_PER_DAY = 86_400_000;

/** An instant: a `Date`, an ISO string or epoch milliseconds. */
export type Instant = Date | string | number;

const millis = (t: Instant): number => (t instanceof Date ? t.getTime() : typeof t === 'number' ? t : Date.parse(t));

/**
 * The rating periods from `from` to `to` (`RATING_PERIODS_PER_DAY` per day); 0 when `to`
 * is not later than `from` (games projected out of time order) or either is not a time.
 */
export function ratingPeriodsBetween(from: Instant, to: Instant): number {
  const ms = millis(to) - millis(from);
  return Number.isFinite(ms) && ms > 0 ? (ms / MS_PER_DAY) * RATING_PERIODS_PER_DAY : 0;
}

/**
 * A rating as of `at` when the player's latest rated game ended at `lastPlayedAt`: the
 * deviation grows with the idle time as the paper's step 6 over t fractional periods,
 * φ' = √(φ² + t·σ²) (t = `ratingPeriodsBetween`), capped at `maxDeviation`; the rating and
 * volatility stay. No idle time (or `at` before `lastPlayedAt`) returns `player` itself.
 * Pure: the caller passes the times (the games' end times in the log when rating, the
 * request's time when showing), so a rebuild of the log gives the same figures.
 */
export function ratingAt(
  player: Rating,
  lastPlayedAt: Instant,
  at: Instant,
  config: Glicko2Config = DEFAULT_CONFIG,
): Rating {
  const t = ratingPeriodsBetween(lastPlayedAt, at);
  return t === 0 ? player : idlePeriod(player, t, config);
}

export interface RatedGame {
  readonly a: Rating;
  readonly b: Rating;
}

/**
 * Both players' ratings after one game between them, the game being its own rating
 * period for each (as online servers rate). `scoreOfA` is a's result: 1, 0.5 or 0.
 * Both updates start from the ratings before the game.
 */
export const rateGame = (a: Rating, b: Rating, scoreOfA: Score, config: Glicko2Config = DEFAULT_CONFIG): RatedGame => ({
  a: ratePeriod(a, [{ opponent: b, score: scoreOfA }], config),
  b: ratePeriod(b, [{ opponent: a, score: opposite(scoreOfA) }], config),
});

const opposite = (score: Score): Score => (score === 1 ? 0 : score === 0 ? 1 : 0.5);

/**
 * A rating is provisional while its deviation is above this: lichess's threshold (110),
 * reached after about a dozen games from 350. Provisional ratings are shown with a "?"
 * and may be excluded from pairing ranges and leaderboards.
 */
export const PROVISIONAL_DEVIATION = 110;

export const isProvisional = (r: Rating): boolean => r.deviation > PROVISIONAL_DEVIATION;
