export { type RatedOutcome, rateFinished, writeRatingCounters } from './project.js';
export {
  type BandRecord,
  type CategoryRating,
  type ColorRecord,
  type DiffBucket,
  type HistoryPoint,
  type LeaderboardEntry,
  leaderboard,
  type PlayerProfile,
  playerProfile,
  playerResultsByOpponentBand,
  type RecentGame,
  ratingHistory,
  ratingsDb,
  scoreByRatingDifference,
} from './queries.js';
export {
  DERIVED_RATING_TABLES,
  DIFF_BUCKET,
  DIFF_CAP,
  RATING_BAND,
  type RatingsDb,
  type RatingTables,
} from './schema.js';
export {
  bandOf,
  diffBucket,
  expectation,
  gameBand,
  type PlayerRating,
  type RatableGame,
  type RatingChange,
  ratableGame,
  rateGames,
  ratingKey,
  withRatings,
} from './update.js';
