/**
 * Rating categories: a player has one Glicko-2 rating per category, since speed changes
 * strength. A real-time game's category comes from its estimated duration per player;
 * correspondence is apart; unlimited games have none (they cannot be rated).
 */

export const RATING_CATEGORIES = ['bullet', 'blitz', 'rapid', 'classical', 'correspondence'] as const;
export type RatingCategory = (typeof RATING_CATEGORIES)[number];

export const isRatingCategory = (s: string): s is RatingCategory =>
  (RATING_CATEGORIES as readonly string[]).includes(s);

/**
 * The time controls this package needs to know: the same shape as `TimeControl` of
 * `@shogi/game` (declared here structurally so ratings depends on nothing).
 */
export type TimeControlShape =
  | {
      readonly kind: 'byoyomi';
      readonly mainSeconds: number;
      readonly byoyomiSeconds: number;
      readonly periods: number;
    }
  | { readonly kind: 'fischer'; readonly mainSeconds: number; readonly incrementSeconds: number }
  | { readonly kind: 'correspondence'; readonly daysPerMove: number }
  | { readonly kind: 'unlimited' };

/** Moves per player the estimate assumes: lichess's 40 (its `estimateTotalSeconds`). */
export const ESTIMATED_MOVES = 40;

/**
 * Estimated seconds one player spends on a real-time game: main time plus 40 moves of
 * byoyomi or increment, as lichess estimates. Byoyomi periods beyond the first count once
 * each: a period is spent entirely only when a move overruns it, so the extra periods are
 * a one-off reserve, like main time. `null` for correspondence and unlimited.
 */
export function estimatedSeconds(tc: TimeControlShape): number | null {
  switch (tc.kind) {
    case 'byoyomi':
      return tc.mainSeconds + ESTIMATED_MOVES * tc.byoyomiSeconds + (tc.periods - 1) * tc.byoyomiSeconds;
    case 'fischer':
      return tc.mainSeconds + ESTIMATED_MOVES * tc.incrementSeconds;
    case 'correspondence':
    case 'unlimited':
      return null;
    default:
      return tc satisfies never;
  }
}

/**
 * Upper bounds (exclusive) of the estimated duration, in seconds, of each real-time
 * category; classical is everything above. Tuned for shogi rather than lichess's chess
 * bounds (180 / 480 / 1500) so that the usual shogi controls fall where players expect:
 * - bullet < 8 min: 10-second shogi (0 + 10 s byoyomi, 400), 3 or 5 minutes sudden death
 * - blitz < 25 min: 10 minutes sudden death (600), 30-second shogi (1200), 5 min + 10 s (700)
 * - rapid < 60 min: 10 min + 30 s, the NHK Cup's control (1800); 15 min + 60 s (3300)
 * - classical: 30 min + 60 s (4200) and slower, 1 h + 60 s (6000)
 */
export const CATEGORY_BOUNDS = { bullet: 480, blitz: 1500, rapid: 3600 } as const;

/** The rating category of a time control; `null` for unlimited games, which are never rated. */
export function categoryOf(tc: TimeControlShape): RatingCategory | null {
  if (tc.kind === 'correspondence') return 'correspondence';
  const seconds = estimatedSeconds(tc);
  if (seconds === null) return null;
  if (seconds < CATEGORY_BOUNDS.bullet) return 'bullet';
  if (seconds < CATEGORY_BOUNDS.blitz) return 'blitz';
  if (seconds < CATEGORY_BOUNDS.rapid) return 'rapid';
  return 'classical';
}
