/**
 * Who is on a leaderboard. lichess ranks only players active lately: lila's
 * `RankingApi.save` (modules/user/src/main/RankingApi.scala) writes a player's ranking entry
 * after each rated game with `expiresAt = now + 7 days` and lists only "stable" (low-RD)
 * entries; lishogi, the shogi fork with fewer players, keeps them a month
 * (`DateTime.now.plusMonths(1)`). We follow lishogi's month. A player is on the leaderboard
 * of a category at `now` when both hold:
 * - their latest rated game in the category ended at most `LEADERBOARD_ACTIVE_DAYS` (30)
 *   days before `now`;
 * - their deviation grown to `now` (`ratingAt`) is not provisional (RD ≤ 110).
 * The second alone would keep a settled player (RD 45–60) listed for months without a
 * game; the first alone would list a player whose RD has already grown past 110.
 */
import {
  DEFAULT_CONFIG,
  type Glicko2Config,
  type Instant,
  isProvisional,
  MS_PER_DAY,
  type Rating,
  ratingAt,
} from './glicko2.js';

/** Days without a rated game in a category after which a player leaves its leaderboard. */
export const LEADERBOARD_ACTIVE_DAYS = 30;

/** The earliest end of a latest rated game that keeps a player on the leaderboard at `now`. */
export const leaderboardActiveSince = (now: Instant): Date =>
  new Date(new Date(now).getTime() - LEADERBOARD_ACTIVE_DAYS * MS_PER_DAY);

/** Whether a rating whose latest rated game ended at `lastPlayedAt` is on the leaderboard at `now`. */
export function isOnLeaderboard(
  rating: Rating,
  lastPlayedAt: Instant,
  now: Instant,
  config: Glicko2Config = DEFAULT_CONFIG,
): boolean {
  if (new Date(lastPlayedAt).getTime() < leaderboardActiveSince(now).getTime()) return false;
  return !isProvisional(ratingAt(rating, lastPlayedAt, now, config));
}
