/**
 * A player's signals in one rated game, from the engine's screening of its positions and from
 * the game's events (move times, blur). Pure: the screening and the log are read elsewhere.
 */
import {
  ADVANTAGE_FLOOR_CP,
  BLUR_CHUNK,
  FAST_MOVE_MS,
  HIGH_BLUR_PERCENT,
  HIGH_CHUNK_BLURS,
  HIGHLY_FLAT_CV,
  HIGHLY_FLAT_STREAK_CV,
  MIN_CLOCK_SECONDS_FOR_TIMES,
  MODERATE_BLUR_PERCENT,
  MODERATE_CHUNK_BLURS,
  MODERATELY_FLAT_CV,
  MOVE_TIME_PAD_MS,
  NO_FAST_MOVES,
  SCORE_CAP_CP,
  STREAK_MAX_INSTANT,
  STREAK_MOVES,
  SUSPICIOUS_ACPL,
} from './thresholds.js';

export const SPEEDS = ['bullet', 'blitz', 'rapid', 'classical', 'correspondence'] as const;
export type Speed = (typeof SPEEDS)[number];

/** A score as the engine gave it, from the side to move: centipawns or mate in n plies (negative or 0: mated). */
export type EngineScore =
  | { readonly kind: 'cp'; readonly value: number }
  | { readonly kind: 'mate'; readonly value: number };

/** One of the player's own moves. */
export interface PlayerMove {
  readonly usi: string;
  /** the engine's best choices in the position before the move, best first (up to three) */
  readonly engineChoices: readonly string[];
  /** the engine's score of the position before the move, from the player's side (to move) */
  readonly before: EngineScore;
  /** the engine's score of the position after the move, from the opponent's side (to move) */
  readonly after: EngineScore;
  /**
   * The score of the engine's own line for the move played, from the player's side, when the
   * move is among its choices: the loss is then read from one search (best line less this one),
   * not from two searches of two positions, which disagree by more than an engine's move loses.
   */
  readonly playedLine?: EngineScore;
  /** time the player took, from the log; null where the game has no clock */
  readonly timeMs: number | null;
  /** made after the player's main time had run out (byoyomi, or a correspondence period) */
  readonly inByoyomi: boolean;
  /** the page lost focus since the player's previous move (the web client's report) */
  readonly blur: boolean;
}

export interface PlayerGame {
  readonly speed: Speed;
  /** the clock's estimated total seconds (ratings' estimatedSeconds); null without a clock */
  readonly clockSeconds: number | null;
  readonly won: boolean;
  readonly moves: readonly PlayerMove[];
}

export interface Signals {
  readonly moves: number;
  /** average centipawn loss over the player's moves */
  readonly acpl: number;
  /** its standard deviation (lila's sfSd) */
  readonly acplSd: number;
  /** share (0..1) of moves that were the engine's first choice, and among its first three */
  readonly firstChoiceShare: number;
  readonly topThreeShare: number;
  /** the lowest evaluation from the player's side over the game (capped) */
  readonly lowestEvalCp: number;
  /** coefficient of variation of move times before byoyomi; null without enough timed moves */
  readonly moveTimeCv: number | null;
  /** the lowest CV of a 14-move streak; null without one */
  readonly lowestStreakCv: number | null;
  readonly meanMoveTimeMs: number | null;
  readonly moveTimeSdMs: number | null;
  readonly fastMoves: number;
  /** percent of moves made after the page lost focus, and the most in any 12 consecutive moves */
  readonly blurPercent: number;
  readonly highestChunkBlurs: number;
}

/** lila's PlayerFlags, in its order. */
export interface Flags {
  readonly suspiciousErrorRate: boolean;
  readonly alwaysHasAdvantage: boolean;
  readonly highBlurRate: boolean;
  readonly moderateBlurRate: boolean;
  readonly highlyConsistentMoveTimes: boolean;
  readonly moderatelyConsistentMoveTimes: boolean;
  readonly noFastMoves: boolean;
}

const capped = (score: EngineScore): number => {
  if (score.kind === 'mate') return score.value > 0 ? SCORE_CAP_CP : -SCORE_CAP_CP;
  return Math.max(-SCORE_CAP_CP, Math.min(SCORE_CAP_CP, score.value));
};

/** A move's loss: the best score before it minus what it left (its own line's score when known), from the mover's side, never below 0. */
export const centipawnLoss = (move: Pick<PlayerMove, 'before' | 'after' | 'playedLine'>): number =>
  Math.max(0, capped(move.before) - (move.playedLine === undefined ? -capped(move.after) : capped(move.playedLine)));

export const mean = (xs: readonly number[]): number =>
  xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;

/** Population standard deviation, as lila's Stats (no Bessel correction). */
export function deviation(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / xs.length);
}

/** lila's coefVariation: sd / mean; null for fewer than two values or a zero mean. */
export function coefVariation(xs: readonly number[]): number | null {
  if (xs.length < 2) return null;
  const m = mean(xs);
  return m === 0 ? null : deviation(xs) / m;
}

/** lila's moveTimeCoefVariation: each time padded by 0.1 s, the first move dropped (it is always instant there). */
export const moveTimeCv = (timesMs: readonly number[]): number | null =>
  coefVariation(timesMs.slice(1).map((t) => t + MOVE_TIME_PAD_MS));

/** lishogi's slidingMoveTimesCvs: every 14-move window, shortest and longest dropped, unless too many are instant. */
export function streakCvs(timesMs: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i + STREAK_MOVES <= timesMs.length; i++) {
    const window = timesMs
      .slice(i, i + STREAK_MOVES)
      .sort((a, b) => a - b)
      .slice(1, -1);
    if (window.filter((t) => t === 0).length >= STREAK_MAX_INSTANT) continue;
    const cv = coefVariation(window.map((t) => t + MOVE_TIME_PAD_MS));
    if (cv !== null) out.push(cv);
  }
  return out;
}

/** The most blurred moves in any BLUR_CHUNK consecutive ones (lila's highestChunkBlurs; a shorter game is one chunk). */
export function highestChunkBlurs(blurs: readonly boolean[]): number {
  let best = 0;
  const last = Math.max(0, blurs.length - BLUR_CHUNK);
  for (let i = 0; i <= last; i++) best = Math.max(best, blurs.slice(i, i + BLUR_CHUNK).filter(Boolean).length);
  return best;
}

export function signalsOf(game: PlayerGame): Signals {
  const { moves } = game;
  const losses = moves.map(centipawnLoss);
  const ranked = moves.map((m) => m.engineChoices.indexOf(m.usi));
  // the evaluation the player faced before each move and left after it, both from their side
  const evals = moves.flatMap((m) => [capped(m.before), -capped(m.after)]);
  const timed = moves.filter((m) => m.timeMs !== null && !m.inByoyomi).map((m) => m.timeMs as number);
  const allTimes = moves.filter((m) => m.timeMs !== null).map((m) => m.timeMs as number);
  const streaks = streakCvs(timed);
  const share = (n: number) => (moves.length === 0 ? 0 : n / moves.length);
  return {
    moves: moves.length,
    acpl: mean(losses),
    acplSd: deviation(losses),
    firstChoiceShare: share(ranked.filter((r) => r === 0).length),
    topThreeShare: share(ranked.filter((r) => r >= 0 && r < 3).length),
    lowestEvalCp: evals.length === 0 ? 0 : Math.min(...evals),
    moveTimeCv: moveTimeCv(timed),
    lowestStreakCv: streaks.length === 0 ? null : Math.min(...streaks),
    meanMoveTimeMs: allTimes.length === 0 ? null : mean(allTimes),
    moveTimeSdMs: allTimes.length === 0 ? null : deviation(allTimes),
    fastMoves: allTimes.filter((t) => t < FAST_MOVE_MS).length,
    blurPercent: Math.round(share(moves.filter((m) => m.blur).length) * 100),
    highestChunkBlurs: highestChunkBlurs(moves.map((m) => m.blur)),
  };
}

const acplThreshold = (speed: Speed): number =>
  speed === 'bullet' ? SUSPICIOUS_ACPL.bullet : speed === 'blitz' ? SUSPICIOUS_ACPL.blitz : SUSPICIOUS_ACPL.other;

/** lila's mkFlags over the signals. */
export function flagsOf(signals: Signals, game: Pick<PlayerGame, 'speed' | 'clockSeconds'>): Flags {
  const timesCount = game.clockSeconds === null || game.clockSeconds > MIN_CLOCK_SECONDS_FOR_TIMES;
  const cv = signals.moveTimeCv;
  const streak = signals.lowestStreakCv;
  const highlyFlat =
    timesCount && ((cv !== null && cv < HIGHLY_FLAT_CV) || (streak !== null && streak < HIGHLY_FLAT_STREAK_CV));
  return {
    suspiciousErrorRate: signals.moves > 0 && signals.acpl < acplThreshold(game.speed),
    alwaysHasAdvantage: signals.moves > 0 && signals.lowestEvalCp >= ADVANTAGE_FLOOR_CP,
    highBlurRate: signals.blurPercent > HIGH_BLUR_PERCENT || signals.highestChunkBlurs >= HIGH_CHUNK_BLURS,
    moderateBlurRate: signals.blurPercent > MODERATE_BLUR_PERCENT || signals.highestChunkBlurs >= MODERATE_CHUNK_BLURS,
    highlyConsistentMoveTimes: highlyFlat,
    moderatelyConsistentMoveTimes: cv !== null && cv < MODERATELY_FLAT_CV,
    noFastMoves: signals.fastMoves <= Math.floor(signals.moves / NO_FAST_MOVES.per) + NO_FAST_MOVES.plus,
  };
}
