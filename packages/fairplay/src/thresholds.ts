/**
 * Every number the rules read, with where it comes from. "lila" is lichess-org/lila's
 * modules/evaluation (Assessible.scala, Statistics.scala, PlayerAggregateAssessment.scala),
 * "lishogi" its fork in WandererXII/lishogi (commit e77f83d), "RatingRefund" lila's
 * modules/mod/src/main/RatingRefund.scala. docs/fair-play.md holds the same table.
 */

/**
 * Average centipawn loss below which a player's error rate is suspicious, by speed. Issue 47
 * gives 60/50/40 as lishogi's shogi figures; the lishogi Assessible read here (e77f83d) still has
 * lila's chess 25/20/15, so these are the issue's, to be tuned by the labelled benchmark.
 */
export const SUSPICIOUS_ACPL = { bullet: 60, blitz: 50, other: 40 } as const;

/** lila/lishogi Assessible.alwaysHasAdvantage: never below -100 cp from the player's side. */
export const ADVANTAGE_FLOOR_CP = -100;

/** lila's Eval.Cp ceiling: scores (and so losses) are capped at 1000 cp; a mate counts as the cap. */
export const SCORE_CAP_CP = 1000;

/** lila/lishogi Statistics: every move time is raised by 0.1 s (10 centiseconds) before the CV. */
export const MOVE_TIME_PAD_MS = 100;
/** lila/lishogi Statistics.cvIndicatesHighlyFlatTimes. */
export const HIGHLY_FLAT_CV = 0.25;
/** lishogi Statistics.cvIndicatesHighlyFlatTimesForStreaks (lila: 0.13). */
export const HIGHLY_FLAT_STREAK_CV = 0.14;
/** lila/lishogi Statistics.cvIndicatesModeratelyFlatTimes. */
export const MODERATELY_FLAT_CV = 0.4;
/** lishogi Statistics.slidingMoveTimesCvs: windows of 14 moves (lila: 15), the shortest and longest dropped. */
export const STREAK_MOVES = 14;
/** lila/lishogi slidingMoveTimesCvs: a window with this many instantaneous moves or more is skipped. */
export const STREAK_MAX_INSTANT = 4;
/** lila/lishogi Assessible: move-time flags only for clocks estimated over 60 s. */
export const MIN_CLOCK_SECONDS_FOR_TIMES = 60;

/** lila/lishogi Statistics.fastMove: a move under 0.5 s. */
export const FAST_MOVE_MS = 500;
/** lila/lishogi Statistics.noFastMoves: at most moves / 20 + 2 fast ones. */
export const NO_FAST_MOVES = { per: 20, plus: 2 } as const;

/** lila/lishogi Assessible: blur percent over 90 is high, over 70 moderate. */
export const HIGH_BLUR_PERCENT = 90;
export const MODERATE_BLUR_PERCENT = 70;
/** lila/lishogi Assessible.highestChunkBlurs: windows of 12 moves, 11 blurred is high, 8 moderate. */
export const BLUR_CHUNK = 12;
export const HIGH_CHUNK_BLURS = 11;
export const MODERATE_CHUNK_BLURS = 8;

/** lishogi Assessible.tcFactor: a game's weight in the aggregate by speed. */
export const TC_FACTOR = { bullet: 1.25, blitz: 1.25, rapid: 1.0, classical: 0.6, correspondence: 1.0 } as const;
/** lila/lishogi weightedAssessmentValue: a game with highly consistent move times weighs 1.6 times. */
export const FLAT_TIMES_WEIGHT = 1.6;

/** lishogi PlayerAggregateAssessment.action (markable, reportable) and its account predicates. */
export const AGGREGATE = {
  markable: { weightedCheating: 3, weightedCheatingOrLikely: 6, cheatingPercent: 8, likelyPercent: 16 },
  reportable: { cheating: 2, cheatingOrLikely: 4, cheatingOrLikelyNew: 2, cheatingPercent: 5, likelyPercent: 10 },
  /** isGreatUser: best rating over 2500 with at least 100 rated games */
  greatRating: 2500,
  greatGames: 100,
  /** isNewRatedUser: fewer than 10 rated games */
  newRatedGames: 10,
  /** isWorthLookingAt: at least 2 rated games */
  worthLookingAtGames: 2,
  /** actionable: a difference of 10 cp between the confidence groups; under 50 games always actionable */
  sigDifCp: 10,
  actionableGames: 50,
  /** sfAvgGiven's 95 % interval */
  z: 1.96,
  /** sfAvgLowVar: a game's move-time sd/avg under 0.5 */
  lowVariance: 0.5,
} as const;

/** RatingRefund as issue 47 states it: rated games of the last 7 days, at most 150 points a victim and category. */
export const REFUND = { days: 7, maxPoints: 150 } as const;
