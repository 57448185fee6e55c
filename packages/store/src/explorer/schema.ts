/** The explorer's index table (migration 0020). Use `db.withTables<ExplorerTables>()`. */
import type { ColumnType } from 'kysely';

/** The index's two trees: games played here (`/api/explorer/games`), imported records (`/masters`). */
export const EXPLORER_SOURCES = ['played', 'imported'] as const;
export type ExplorerSource = (typeof EXPLORER_SOURCES)[number];

export interface ExplorerRunsTable {
  source: ExplorerSource;
  bucket: number;
  run: ColumnType<string, never, never>;
  /** packEntries' bytes */
  data: Uint8Array;
}

export interface ExplorerTables {
  explorer_runs: ExplorerRunsTable;
}

export const DERIVED_EXPLORER_TABLES = ['explorer_runs'] as const;

/** A bucket with more runs than this is merged into one after a write (compaction). */
export const MAX_RUNS = 8;
