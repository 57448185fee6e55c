/**
 * Pairing of seeks, pure: the pool a seek pairs in, which open seek a new one pairs with,
 * and who plays which side. The seek service (seeks.ts) reads candidates and locks the
 * chosen one; nothing here does I/O.
 *
 * Colours are the sides of the game: in a handicap game gote is the giver (uwate) and
 * moves first, so a preference for 'gote' is a preference for giving the handicap.
 */
import type { ColorPreference, RatingRange, Side, TimeControl } from '@shogi/protocol';

export interface SeekTerms {
  readonly id: string;
  readonly playerId: string;
  /** the seeker's rating in the seek's category */
  readonly rating: number;
  readonly timeControl: TimeControl;
  readonly rated: boolean;
  readonly ruleset: string;
  readonly handicap: string | null;
  readonly color: ColorPreference;
  readonly ratingRange: RatingRange | null;
  readonly createdAt: Date;
}

/**
 * One canonical string per time control (fields in a fixed order), so two seeks compare
 * equal, and index equal in PostgreSQL, whatever the order of the fields in their JSON.
 */
export function timeControlKey(tc: TimeControl): string {
  switch (tc.kind) {
    case 'byoyomi':
      return `byoyomi:${tc.mainSeconds}+${tc.byoyomiSeconds}x${tc.periods}`;
    case 'fischer':
      return `fischer:${tc.mainSeconds}+${tc.incrementSeconds}`;
    case 'correspondence':
      return `correspondence:${tc.daysPerMove}`;
    case 'unlimited':
      return 'unlimited';
    default:
      return tc satisfies never;
  }
}

/** The terms a seek pairs on, one string: the pool (and its advisory lock) of the seek. */
export const poolKeyOf = (t: Pick<SeekTerms, 'timeControl' | 'rated' | 'ruleset' | 'handicap'>): string =>
  `${timeControlKey(t.timeControl)}|${t.rated ? 'rated' : 'casual'}|${t.ruleset}|${t.handicap ?? 'even'}`;

const inRange = (rating: number, range: RatingRange | null): boolean =>
  range === null || (rating >= range.min && rating <= range.max);

/** Both asked for the same side: nobody would play the other. */
export const colorsConflict = (a: ColorPreference, b: ColorPreference): boolean => a !== 'random' && a === b;

/** Whether two seeks may be paired: same terms, each rating in the other's range, colours apart, two players. */
export function compatible(a: SeekTerms, b: SeekTerms): boolean {
  return (
    a.playerId !== b.playerId &&
    a.rated === b.rated &&
    a.ruleset === b.ruleset &&
    a.handicap === b.handicap &&
    timeControlKey(a.timeControl) === timeControlKey(b.timeControl) &&
    inRange(a.rating, b.ratingRange) &&
    inRange(b.rating, a.ratingRange) &&
    !colorsConflict(a.color, b.color)
  );
}

/** Candidates compatible with `seek`, best first: the closest rating, then the oldest, then by id. */
export function rankCandidates<T extends SeekTerms>(seek: SeekTerms, candidates: readonly T[]): T[] {
  return candidates
    .filter((c) => compatible(seek, c))
    .sort(
      (x, y) =>
        Math.abs(x.rating - seek.rating) - Math.abs(y.rating - seek.rating) ||
        x.createdAt.getTime() - y.createdAt.getTime() ||
        (x.id < y.id ? -1 : x.id > y.id ? 1 : 0),
    );
}

export const other = (side: Side): Side => (side === 'sente' ? 'gote' : 'sente');

/**
 * The side of the player who asked for `a` against one who asked for `b` (not in
 * conflict): a stated preference wins; when both leave it open, `coin()` decides.
 */
export function sideOf(a: ColorPreference, b: ColorPreference, coin: () => boolean): Side {
  if (a !== 'random') return a;
  if (b !== 'random') return other(b);
  return coin() ? 'sente' : 'gote';
}

/**
 * The offerer's side in a rematch: colours swap, but in a handicap game the giver stays
 * the giver (the handicap is about strength, not about taking turns).
 */
export function rematchSide(previousSide: Side, handicap: string | null): Side {
  return handicap === null ? other(previousSide) : previousSide;
}
