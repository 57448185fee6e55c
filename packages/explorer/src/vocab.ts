/**
 * The explorer's dimensions: speed categories, lichess's rating groups and months. Each is a
 * small integer in the packed index, so a filter is a bit set over them.
 */

/** Speeds as the ratings package names its categories; `unlimited` for games without a clock (and most imports). */
export const SPEEDS = ['bullet', 'blitz', 'rapid', 'classical', 'correspondence', 'unlimited'] as const;
export type Speed = (typeof SPEEDS)[number];

/**
 * lichess's rating groups (lila-openingexplorer's RatingGroup): a game falls in the group of
 * its players' average pre-game rating, from each floor up to the next.
 */
export const RATING_BANDS = [0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500] as const;
export type RatingBand = (typeof RATING_BANDS)[number];
/** The band index of a game without ratings (casual and imported games): no `ratings` filter selects it. */
export const UNRATED_BAND = RATING_BANDS.length;

export const isSpeed = (s: string): s is Speed => (SPEEDS as readonly string[]).includes(s);
export const speedIndex = (s: Speed): number => SPEEDS.indexOf(s);
/** A time category (`@shogi/ratings` categoryOf) or null as a speed. */
export const speedOfCategory = (category: string | null | undefined): Speed =>
  category != null && isSpeed(category) ? category : 'unlimited';

/** The band index of an average rating; UNRATED_BAND when there is none. */
export function bandIndex(average: number | null): number {
  if (average === null || !Number.isFinite(average)) return UNRATED_BAND;
  let i = 0;
  while (i + 1 < RATING_BANDS.length && average >= (RATING_BANDS[i + 1] as number)) i++;
  return i;
}

/** Months since January 2000 (0); the packed index stores this. */
export const MONTH_ZERO_YEAR = 2000;
export const monthIndexOf = (at: Date | string): number => {
  const d = new Date(at);
  return Math.max(0, (d.getUTCFullYear() - MONTH_ZERO_YEAR) * 12 + d.getUTCMonth());
};
const MONTH = /^(\d{4})-(\d{2})$/;
/** `YYYY-MM` as a month index, or null when it is not a month (the routes' `since`/`until`). */
export function parseMonth(text: string): number | null {
  const m = MONTH.exec(text);
  if (m === null) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  if (month < 1 || month > 12) return null;
  return Math.max(0, (year - MONTH_ZERO_YEAR) * 12 + month - 1);
}
export const monthText = (index: number): string => {
  const y = MONTH_ZERO_YEAR + Math.floor(index / 12);
  return `${y}-${String((index % 12) + 1).padStart(2, '0')}`;
};
