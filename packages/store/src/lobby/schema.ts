/** Table types of the lobby (migrations 0010, 0011). Use `lobbyDb(db)` (kysely's withTables). */
import type { ColumnType, Kysely, Selectable } from 'kysely';
import type { Database } from '../schema.js';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** jsonb: written as its JSON text, read back parsed */
type Json = ColumnType<unknown, string, string>;

export interface SeeksTable {
  id: string;
  player_id: string;
  player_name: string;
  rating: number;
  pool_key: string;
  time_control: Json;
  rated: boolean;
  ruleset: string;
  handicap: string | null;
  color: string;
  rating_min: number | null;
  rating_max: number | null;
  /** 'open' | 'paired' | 'cancelled' | 'expired' (set by the sweep; an open seek past expires_at is expired already) */
  status: string;
  game_id: string | null;
  side: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  /** the client address of an open seek, as the per-address limit counts it; null once closed (migration 0011) */
  address_key: string | null;
}

export interface ChallengesTable {
  id: string;
  challenger_id: string;
  challenger_name: string;
  opponent_id: string;
  opponent_name: string;
  time_control: Json;
  rated: boolean;
  ruleset: string;
  handicap: string | null;
  sfen: string | null;
  /** the challenger's colour preference */
  color: string;
  /** 'pending' | 'accepted' | 'declined' | 'cancelled' | 'expired' (set by the sweep; a pending one past expires_at is expired already) */
  status: string;
  game_id: string | null;
  rematch_of: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
}

// a type, not an interface: withTables wants an index signature
export type LobbyTables = {
  seeks: SeeksTable;
  challenges: ChallengesTable;
};

export type LobbyDb = Kysely<Database & LobbyTables>;
export type SeekRow = Selectable<SeeksTable>;
export type ChallengeRow = Selectable<ChallengesTable>;

export const lobbyDb = (db: Kysely<Database>): LobbyDb => db.withTables<LobbyTables>();
