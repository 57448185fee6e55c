/**
 * When a bot gives up. Only the stronger levels resign: their searches see far enough for
 * a lost verdict to be trusted, and the weaker ones are played by people who still learn
 * by finishing a won game. A single bad score is not enough — the search can swing from
 * one move to the next — so the verdict must hold over the bot's last few searches.
 */
import type { UsiScore } from '@shogi/usi';
import type { Level } from './levels.js';

export const RESIGNATION = {
  /** The lowest level that resigns; levels below it play to the end. */
  fromLevel: 5,
  /** A score at or below minus this many centipawns, from the bot's side, is hopeless. */
  hopelessCp: 2500,
  /** How many of the bot's searches in a row must find the position hopeless. */
  searches: 4,
} as const;

/**
 * Whether the score, from the side to move, proves the position hopeless: a mate against it,
 * or a loss of at least `hopelessCp`. A lower bound proves nothing downwards (the true score
 * may be higher), so only exact scores and upper bounds count.
 */
export function isHopeless(score: UsiScore): boolean {
  if (score.bound === 'lower') return false;
  if (score.kind === 'mate') return !score.winning;
  return score.value <= -RESIGNATION.hopelessCp;
}

/**
 * Whether a bot at `level` should resign now, given the scores of its own searches in this
 * game, oldest first, each as the engine reported it with the bot to move (so from the
 * bot's side). A move searched without a score breaks the run.
 */
export function shouldResign(level: Level, recentScores: readonly (UsiScore | undefined)[]): boolean {
  if (level < RESIGNATION.fromLevel) return false;
  const last = recentScores.slice(-RESIGNATION.searches);
  return last.length === RESIGNATION.searches && last.every((s) => s !== undefined && isHopeless(s));
}
