/** Table types of game analyses (migration 0012). Use `analysisDb(db)` (kysely's withTables). */
import type { ColumnType, Kysely, Selectable } from 'kysely';
import type { Database } from '../schema.js';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** jsonb: written as its JSON text, read back parsed */
type Json = ColumnType<unknown, string, string>;

export const ANALYSIS_ROW_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type AnalysisRowStatus = (typeof ANALYSIS_ROW_STATUSES)[number];

export interface GameAnalysesTable {
  game_id: string;
  /** the engine's name and search limit as one key (engine-bots `analysisSettingKey`) */
  setting: string;
  status: AnalysisRowStatus;
  /** the wire's `engine`: `{ name, depth }` */
  engine: Json;
  /** the side to move at ply 0, which the stored scores (from the side to move) are turned from */
  first_side: 'sente' | 'gote';
  /** the latest request: the game's analysis shown is its most recently requested one */
  requested_at: Timestamp;
  updated_at: Timestamp;
  /** why it failed; null unless failed */
  error: string | null;
}

export interface GameAnalysisPliesTable {
  game_id: string;
  setting: string;
  /** the position after this many moves */
  ply: number;
  /** as the engine wrote it after `score`, from the side to move: `cp 120`, `mate -3`, `mate 0` */
  score: string;
  /** the engine's line from this position, best move first; empty where the game is over */
  pv: string[];
}

// a type, not an interface: withTables wants an index signature
export type AnalysisTables = {
  game_analyses: GameAnalysesTable;
  game_analysis_plies: GameAnalysisPliesTable;
};

export type AnalysisDb = Kysely<Database & AnalysisTables>;
export type GameAnalysisRow = Selectable<GameAnalysesTable>;
export type GameAnalysisPlyRow = Selectable<GameAnalysisPliesTable>;

export const analysisDb = (db: Kysely<Database>): AnalysisDb => db.withTables<AnalysisTables>();
