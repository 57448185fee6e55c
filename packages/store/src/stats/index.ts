export {
  addImportQuotaUse,
  deleteExpiredImportQuotaUses,
  IMPORT_QUOTA_WINDOW_MS,
  type ImportQuotaUse,
  importQuotaUse,
} from './import-quota.js';
export {
  type ImportBytesOptions,
  type ImportFailureCode,
  type ImportOptions,
  type ImportOutcome,
  importRecord,
  importRecordBytes,
} from './import-record.js';
export { finishedGameEnd, type PeriodGamesOptions, periodGames } from './period-games.js';
export {
  type BatchResult,
  catchUp,
  type ProjectorLogger,
  projectBatch,
  type RunningProjector,
  readCheckpoint,
  rebuildStats,
  STATS_PROJECTION,
  startProjector,
  statsDb,
} from './projector.js';
export {
  endingReasons,
  lengthDistribution,
  type OpeningMove,
  openingExplorer,
  openingsAtPosition,
  type PlayerGamesOptions,
  type PlayerRecord,
  type PlayerStats,
  playerGames,
  playerStats,
  playerStreaks,
  type ReasonCount,
  type ResultsSummary,
  resultsSummary,
  type Shares,
  type SourceFilter,
  type StatsFilter,
  type Streaks,
  shares,
} from './queries.js';
export { type RecordOutcome, statedOutcome } from './record-outcome.js';
export {
  DERIVED_STATS_TABLES,
  type FinishedGamesTable,
  GAME_RESULTS,
  type GameResult,
  STATS_END_REASONS,
  STATS_SOURCES,
  type StatsDb,
  type StatsEndReason,
  type StatsSource,
  type StatsTables,
} from './schema.js';
