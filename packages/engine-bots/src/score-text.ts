/**
 * An engine's score as text, the way USI writes it after `score` (`cp 120`, `mate -3`,
 * `mate 0`, `mate +`, with `lowerbound` or `upperbound` when the search gave a bound): how an
 * analysis keeps the engine's own words, to be read back and judged when it is shown.
 */
import { formatScore, parseInfoLine, type UsiScore } from '@shogi/usi';

export const scoreText = (score: UsiScore): string => formatScore(score).slice('score '.length);

/** The score the text says; null when it is not a USI score. */
export function scoreOfText(text: string): UsiScore | null {
  const info = parseInfoLine(`info score ${text}`);
  return typeof info === 'string' || info.score === undefined ? null : info.score;
}
