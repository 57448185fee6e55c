/**
 * Pure: which finished games change ratings, and the fold of rated games, in the order of
 * the global log, over the players' current ratings. Each game is its own rating period
 * for both players, each rated against the other's pre-game rating (as lichess rates).
 * Before a game, each player's deviation grows with the time since their previous rated
 * game in the category (`ratingAt`: lichess's 0.21436 rating periods a day, capped at
 * 350), measured between the games' end times in the log, never the wall clock: the
 * ratings are a function of the log alone, so a rebuild gives the same numbers.
 */
import {
  DEFAULT_CONFIG,
  expectedScore,
  NEW_PLAYER,
  type Rating,
  type RatingCategory,
  rateGame,
  ratingAt,
  type Score,
} from '@shogi/ratings';
import type { FinishedRow } from '../stats/rows.js';
import { DIFF_BUCKET, DIFF_CAP, RATING_BAND } from './schema.js';

export interface PlayerRating extends Rating {
  readonly playerId: string;
  readonly category: RatingCategory;
  readonly name: string;
  readonly games: number;
  readonly wins: number;
  readonly losses: number;
  readonly draws: number;
  /**
   * The end of the player's latest rated game in the category, by time (a game that ended
   * earlier but was projected later leaves it): where the idle time that grows RD starts.
   */
  readonly updatedAt: string;
}

/** One player's side of one rated game. */
export interface RatingChange {
  readonly gameId: string;
  readonly playerId: string;
  readonly opponentId: string;
  readonly category: RatingCategory;
  /** The rating the game was rated from: the previous one, its deviation grown to the game's end. */
  readonly before: Rating;
  readonly after: Rating;
  readonly at: string;
  readonly globalPosition: number;
}

/** A finished game that changes ratings: rated, with a time category, ended with a result. */
export interface RatableGame {
  readonly gameId: string;
  readonly globalPosition: number;
  readonly category: RatingCategory;
  readonly sente: { readonly id: string; readonly name: string };
  readonly gote: { readonly id: string; readonly name: string };
  readonly result: 'sente' | 'gote' | 'draw';
  readonly at: string;
}

/**
 * The game as a rated game, or null: unrated, unlimited (no category) and aborted or
 * interrupted games (result 'none') change nothing.
 */
export function ratableGame(row: FinishedRow): RatableGame | null {
  if (!row.rated || row.time_category == null || row.result === 'none' || row.end_reason === 'abort') return null;
  return {
    gameId: row.game_id,
    globalPosition: Number(row.global_position),
    category: row.time_category as RatingCategory,
    sente: { id: row.sente_id, name: row.sente_name },
    gote: { id: row.gote_id, name: row.gote_name },
    result: row.result,
    at: new Date(row.ended_at).toISOString(),
  };
}

export const ratingKey = (playerId: string, category: string): string => `${playerId}\u0000${category}`;

const fresh = (playerId: string, category: RatingCategory, name: string, at: string): PlayerRating => ({
  ...NEW_PLAYER,
  playerId,
  category,
  name,
  games: 0,
  wins: 0,
  losses: 0,
  draws: 0,
  updatedAt: at,
});

/** The later of two ISO instants (a game projected after a later one does not move the idle clock back). */
const later = (a: string, b: string): string => (Date.parse(b) >= Date.parse(a) ? b : a);

const asRating = (r: Rating): Rating => ({ rating: r.rating, deviation: r.deviation, volatility: r.volatility });

export interface Fold {
  /** The players' ratings after the games (only the ones the games touched). */
  readonly ratings: Map<string, PlayerRating>;
  /** Two changes a game (sente's, then gote's), in the order of the games. */
  readonly changes: RatingChange[];
}

/**
 * Rates `games` in the order given (the log's), starting from `current` (key: `ratingKey`);
 * a player without a rating in the category starts at 1500 / RD 350 / σ 0.06. Each side
 * is rated from its rating as of the game's end (`ratingAt` from its `updatedAt`), against
 * the opponent's as of the same time; a game that ended before the player's previous one
 * (log order is not time order) adds no idle time.
 */
export function rateGames(games: readonly RatableGame[], current: ReadonlyMap<string, PlayerRating>): Fold {
  const ratings = new Map<string, PlayerRating>();
  const changes: RatingChange[] = [];
  const get = (p: { id: string; name: string }, g: RatableGame): PlayerRating => {
    const k = ratingKey(p.id, g.category);
    return ratings.get(k) ?? current.get(k) ?? fresh(p.id, g.category, p.name, g.at);
  };
  for (const g of games) {
    const s = get(g.sente, g);
    const o = get(g.gote, g);
    const scoreOfSente: Score = g.result === 'sente' ? 1 : g.result === 'gote' ? 0 : 0.5;
    const sBefore = ratingAt(asRating(s), s.updatedAt, g.at, DEFAULT_CONFIG);
    const oBefore = ratingAt(asRating(o), o.updatedAt, g.at, DEFAULT_CONFIG);
    const next = rateGame(sBefore, oBefore, scoreOfSente, DEFAULT_CONFIG);
    const sides = [
      [g.sente, s, sBefore, next.a, o, scoreOfSente],
      [g.gote, o, oBefore, next.b, s, (1 - scoreOfSente) as Score],
    ] as const;
    for (const [p, before, rated, after, opponent, score] of sides) {
      ratings.set(ratingKey(p.id, g.category), {
        ...after,
        playerId: p.id,
        category: g.category,
        name: p.name,
        games: before.games + 1,
        wins: before.wins + (score === 1 ? 1 : 0),
        losses: before.losses + (score === 0 ? 1 : 0),
        draws: before.draws + (score === 0.5 ? 1 : 0),
        updatedAt: later(before.updatedAt, g.at),
      });
      changes.push({
        gameId: g.gameId,
        playerId: p.id,
        opponentId: opponent.playerId,
        category: g.category,
        before: rated,
        after: asRating(after),
        at: g.at,
        globalPosition: g.globalPosition,
      });
    }
  }
  return { ratings, changes };
}

/** The finished_games row with the ratings before/after (rounded, as shown) from the game's two changes. */
export function withRatings(row: FinishedRow, sente: RatingChange, gote: RatingChange): FinishedRow {
  return {
    ...row,
    sente_rating_before: Math.round(sente.before.rating),
    sente_rating_after: Math.round(sente.after.rating),
    gote_rating_before: Math.round(gote.before.rating),
    gote_rating_after: Math.round(gote.after.rating),
  };
}

/** Lower end of the band of a rating (100 points wide). */
export const bandOf = (rating: number): number => Math.floor(rating / RATING_BAND) * RATING_BAND;

/** The band of a game: of the two players' average pre-game rating (the shown, rounded ones). */
export const gameBand = (senteBefore: number, goteBefore: number): number => bandOf((senteBefore + goteBefore) / 2);

/** Lower end of the bucket of an absolute rating difference (50 wide, the last from 800 up). */
export const diffBucket = (diff: number): number =>
  Math.min(Math.floor(Math.abs(diff) / DIFF_BUCKET) * DIFF_BUCKET, DIFF_CAP);

/**
 * The higher-rated side of a game and its Glicko expected score (with the lower side's RD,
 * as the paper's E), from the pre-game ratings; sente on a tie.
 */
export function expectation(
  sente: Rating,
  gote: Rating,
): { higher: 'sente' | 'gote'; bucket: number; expected: number } {
  const higher = sente.rating >= gote.rating ? 'sente' : 'gote';
  const [h, l] = higher === 'sente' ? [sente, gote] : [gote, sente];
  return { higher, bucket: diffBucket(sente.rating - gote.rating), expected: expectedScore(h, l) };
}
