/** Table types of fair play (migrations 0018, 0021). Use `fairplayDb(db)` (kysely's withTables). */
import type { ColumnType, Kysely, Selectable } from 'kysely';
import type { Database } from '../schema.js';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** jsonb: written as its JSON text, read back parsed */
type Json = ColumnType<unknown, string, string>;
type BigCount = ColumnType<string, number | string, number | string>;

export interface FairplayAssessmentsTable {
  game_id: string;
  player_id: string;
  color: 'sente' | 'gote';
  /** @shogi/fairplay GameVerdict */
  verdict: string;
  /** the rule-table row that decided; null: none matched */
  rule: string | null;
  speed: string;
  /** @shogi/fairplay Signals */
  signals: Json;
  /** @shogi/fairplay Flags */
  flags: Json;
  /** the screening depth it was searched to */
  depth: number;
  ended_at: Timestamp;
  assessed_at: Timestamp;
}

export interface FairplayAccountsTable {
  player_id: string;
  /** @shogi/fairplay AccountVerdict */
  verdict: string;
  /** @shogi/fairplay Aggregate */
  aggregate: Json;
  updated_at: Timestamp;
}

export interface EngineMarksTable {
  player_id: string;
  marked: boolean;
  /** the moderator's player id */
  by: string;
  reason: string;
  at: Timestamp;
}

export interface FairplayReportsTable {
  player_id: string;
  /** the PlayerReported event's seq in the account's fair-play stream */
  seq: number;
  reporter_id: string;
  reason: string;
  text: string | null;
  at: Timestamp;
}

export interface RatingRefundsTable {
  global_position: BigCount;
  player_id: string;
  category: string;
  points: number;
  marked_id: string;
  at: Timestamp;
}

/** Migration 0021: a keyed hash of each client address an account was seen from. */
export interface AccountAddressesTable {
  player_id: string;
  /** HMAC-SHA256 of the address's key (an IPv6 client's /64), base64url: never the address */
  address_hash: string;
  first_seen: Timestamp;
  last_seen: Timestamp;
}

export interface FairplayAddressKeyTable {
  id: ColumnType<boolean, boolean | undefined, never>;
  key: string;
}

export type FairplayTables = {
  account_addresses: AccountAddressesTable;
  fairplay_address_key: FairplayAddressKeyTable;
  fairplay_assessments: FairplayAssessmentsTable;
  fairplay_accounts: FairplayAccountsTable;
  engine_marks: EngineMarksTable;
  fairplay_reports: FairplayReportsTable;
  rating_refunds: RatingRefundsTable;
};

export type FairplayDb = Kysely<Database & FairplayTables>;
export type FairplayAssessmentRow = Selectable<FairplayAssessmentsTable>;

export const fairplayDb = (db: Kysely<Database>): FairplayDb => db.withTables<FairplayTables>();
