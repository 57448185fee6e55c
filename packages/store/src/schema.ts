/** Table types (kysely): `*Table` interfaces, row types from Selectable/Insertable. */
import type { ColumnType, Generated, Insertable, Kysely, Selectable } from 'kysely';

export interface GameEventsTable {
  game_id: string;
  seq: number;
  type: string;
  payload: unknown;
  recorded_at: ColumnType<Date, Date | string | undefined, never>;
  /**
   * Drawn from one sequence whatever partition the row is in, and never written by the app
   * (insert type never): unique, though the partitioned table cannot declare it (migration
   * 0014). pg returns int8 as a string.
   */
  global_position: ColumnType<string, never, never>;
}

export const GAME_ROW_STATUSES = ['ongoing', 'ended'] as const;
export type GameRowStatus = (typeof GAME_ROW_STATUSES)[number];

export interface GamesTable {
  id: string;
  sente_id: string;
  sente_name: string;
  gote_id: string;
  gote_name: string;
  ruleset: string;
  handicap: string | null;
  status: GameRowStatus;
  side_to_move: 'sente' | 'gote';
  ply: number;
  last_seq: number;
  /** 'sente' | 'gote' | 'draw' once ended. */
  result: string | null;
  winner: 'sente' | 'gote' | null;
  end_reason: string | null;
  sfen: string;
  /** The latest submission without a verdict yet (migration 0003). */
  pending_seq: number | null;
  /** When the side to move runs out of time, lag allowance not included; null: never (migration 0007). */
  deadline_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  created_at: ColumnType<Date, Date | string, Date | string>;
  updated_at: ColumnType<Date, Date | string, Date | string>;
}

export interface PlayersTable {
  id: string;
  name: string;
  /** SHA-256 of a guest player's token; null for an account's player (migration 0008) */
  token_hash: string | null;
  created_at: Generated<Date>;
}

/** An account is a player with a username and a password (migration 0008). */
export interface AccountsTable {
  player_id: string;
  /** as registered; unique by lower(username) */
  username: string;
  /** argon2id PHC string */
  password_hash: string;
  created_at: Generated<Date>;
  /** a bot account (lishogi's BOT title), for good (migration 0013) */
  bot: Generated<boolean>;
  /** always, casual or never: lishogi's takeback preference (migration 0016) */
  takeback: Generated<string>;
}

export const TOKEN_ROW_KINDS = ['session', 'personal'] as const;
export type TokenRowKind = (typeof TOKEN_ROW_KINDS)[number];

/** Session and personal API tokens of accounts, stored as SHA-256 only (migration 0008). */
export interface TokensTable {
  id: string;
  player_id: string;
  kind: TokenRowKind;
  name: string;
  token_hash: string;
  scopes: string[];
  created_at: Generated<Date>;
  expires_at: Date | null;
  revoked_at: Date | null;
}

/** A tournament's stream (migration 0017): positions from the log's one sequence. */
export interface TournamentEventsTable {
  tournament_id: string;
  seq: number;
  type: string;
  payload: unknown;
  recorded_at: ColumnType<Date, Date | string | undefined, never>;
  global_position: ColumnType<string, never, never>;
}

/** The tournaments projection (migration 0017), rebuilt from `tournament_events`. */
export interface TournamentsTable {
  id: string;
  name: string;
  format: string;
  status: 'created' | 'started' | 'finished';
  created_by: string;
  created_by_name: string;
  starts_at: ColumnType<Date, Date | string, Date | string>;
  finishes_at: ColumnType<Date, Date | string, Date | string>;
  started_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  finished_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  terminated: boolean;
  rated: boolean;
  nb_players: number;
  winner_id: string | null;
  terms: unknown;
  last_seq: number;
}

/** A tournament's standings, a row a player (migration 0017). */
export interface TournamentPlayersTable {
  tournament_id: string;
  player_id: string;
  name: string;
  bot: boolean;
  rating: number;
  paused: boolean;
  /** The ranking's keys (migration 0019): by score, then tiebreak, then entered; ranks are counted when read. */
  score: number;
  /** The performance, or the rating before any counted game. */
  tiebreak: number;
  /** The stream version that put the player in: the join order. */
  entered: number;
  performance: number;
  fire: boolean;
  /** lichess's `sheet.scores`: each game's points, the most recent first. */
  sheet: string;
  wins: number;
  draws: number;
  losses: number;
}

/** A tournament's games (migration 0017): the mark of a game's tournament. */
export interface TournamentPairingsTable {
  game_id: string;
  tournament_id: string;
  round: number | null;
  sente_id: string;
  gote_id: string;
  status: 'playing' | 'finished';
  winner: 'sente' | 'gote' | null;
  plies: number | null;
  berserk_sente: boolean;
  berserk_gote: boolean;
  forfeit: boolean;
  paired_at: ColumnType<Date, Date | string, Date | string>;
  finished_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
}

export interface Database {
  game_events: GameEventsTable;
  games: GamesTable;
  players: PlayersTable;
  accounts: AccountsTable;
  tokens: TokensTable;
  tournament_events: TournamentEventsTable;
  tournaments: TournamentsTable;
  tournament_players: TournamentPlayersTable;
  tournament_pairings: TournamentPairingsTable;
}

export type Db = Kysely<Database>;
export type GameRow = Selectable<GamesTable>;
export type NewGameRow = Insertable<GamesTable>;
export type PlayerRow = Selectable<PlayersTable>;
export type NewPlayerRow = Insertable<PlayersTable>;
export type AccountRow = Selectable<AccountsTable>;
export type TokenRow = Selectable<TokensTable>;
