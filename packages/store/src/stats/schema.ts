/** Table types of the statistics projections (migration 0004). Use `db.withTables<StatsTables>()`. */
import { END_REASONS } from '@shogi/game';
import type { ColumnType, Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** bigint columns: pg returns int8 as a string. */
type Count = ColumnType<string, number | string, number | string>;

export const GAME_RESULTS = ['sente', 'gote', 'draw', 'none'] as const;
export type GameResult = (typeof GAME_RESULTS)[number];

/**
 * Ending reasons of finished games: the game's END_REASONS plus the record endings of
 * imported games the live server has no event reason for (record-outcome.ts): `interrupted`
 * (%CHUDAN and records without a result), `draw` (%HIKIWAKE, 引き分け), `forfeit` (不戦勝,
 * 不戦敗) and `try` (トライ).
 */
export const STATS_END_REASONS = [...END_REASONS, 'interrupted', 'forfeit', 'try'] as const;
export type StatsEndReason = (typeof STATS_END_REASONS)[number];

export interface ProjectionCheckpointsTable {
  name: string;
  position: ColumnType<string, number | string, number | string>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface ImportedGamesTable {
  game_id: string;
  source_file: string;
  format: string;
  sha256: string;
  record_ending: string | null;
  end_reason: StatsEndReason;
  imported_at: ColumnType<Date, Date | string | undefined, never>;
}

export interface FinishedGamesTable {
  game_id: string;
  sente_id: string;
  sente_name: string;
  gote_id: string;
  gote_name: string;
  ruleset: string;
  handicap: string | null;
  initial_sfen: string;
  rated: boolean;
  time_category: string | null;
  sente_rating_before: number | null;
  sente_rating_after: number | null;
  gote_rating_before: number | null;
  gote_rating_after: number | null;
  result: GameResult;
  end_reason: string;
  plies: number;
  opening: string[];
  started_at: ColumnType<Date, Date | string, Date | string>;
  ended_at: ColumnType<Date, Date | string, Date | string>;
  imported: boolean;
  global_position: ColumnType<string, number | string, number | string>;
}

/**
 * Where a counted game comes from (migration 0015): played on this server, or imported from a
 * record. The statistics read one of them, or both.
 */
export const STATS_SOURCES = ['played', 'imported'] as const;
export type StatsSource = (typeof STATS_SOURCES)[number];

export const GRAINS = ['day', 'month', 'year', 'all'] as const;
export type Grain = (typeof GRAINS)[number];

interface Dimensions {
  /** Migration 0005: the period's length; `day` is its first day (1970-01-01 for 'all'). */
  grain: Grain;
  day: ColumnType<string, string, string>;
  source: StatsSource;
  ruleset: string;
  handicap: string;
  rated: boolean;
  time_category: string;
}

export interface ResultsCountersTable extends Dimensions {
  end_reason: string;
  sente_wins: Count;
  gote_wins: Count;
  draws: Count;
  no_result: Count;
}

/** results_counters without the ending reason (migration 0005). */
export interface ResultsRollupsTable extends Dimensions {
  sente_wins: Count;
  gote_wins: Count;
  draws: Count;
  no_result: Count;
}

export interface LengthCountersTable extends Dimensions {
  bucket: number;
  games: Count;
}

export interface PlayerResultsTable {
  player_id: string;
  source: StatsSource;
  color: 'sente' | 'gote';
  end_reason: string;
  wins: Count;
  losses: Count;
  draws: Count;
  no_result: Count;
}

export interface OpeningCountersTable {
  handicap: string;
  prefix: string;
  next: string;
  source: StatsSource;
  /** The position before `next`: SFEN board, side and hands (migration 0006; '' if unknown). */
  position: ColumnType<string, string | undefined, string>;
  games: Count;
  sente_wins: Count;
  gote_wins: Count;
  draws: Count;
}

/** What each HTTP import added, per owner ('p:' player id, 'a:' address key), for a day (migration 0015). */
export interface ImportQuotaUsesTable {
  owner: string;
  at: ColumnType<Date, Date | string | undefined, never>;
  records: number;
}

export type StatsTables = {
  import_quota_uses: ImportQuotaUsesTable;
  projection_checkpoints: ProjectionCheckpointsTable;
  imported_games: ImportedGamesTable;
  finished_games: FinishedGamesTable;
  results_counters: ResultsCountersTable;
  results_rollups: ResultsRollupsTable;
  length_counters: LengthCountersTable;
  player_results: PlayerResultsTable;
  opening_counters: OpeningCountersTable;
};

export type StatsDb = Kysely<Database & StatsTables>;

/** The tables a rebuild truncates (everything derived; imported_games is source data). */
export const DERIVED_STATS_TABLES = [
  'finished_games',
  'results_counters',
  'results_rollups',
  'length_counters',
  'player_results',
  'opening_counters',
] as const;

/** Plies per bucket of the game-length distribution. */
export const LENGTH_BUCKET = 10;
/** Moves of a game kept as its opening (finished_games.opening and the explorer). */
export const OPENING_PLIES = 12;
