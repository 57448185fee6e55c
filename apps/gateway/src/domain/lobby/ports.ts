/**
 * What the lobby services are given: the store operations each needs, the game service, and
 * a way to tell players. plugins/lobby-store.ts implements the store ports over @shogi/store.
 * The locks are PostgreSQL's transaction-scoped ones; their order (packages/store's
 * quota-lock.ts and lobby/players.ts) is what keeps pairings and acceptances from waiting on
 * each other in a cycle.
 */
import type { CreateGameBody, GameView, TimeControl } from '@shogi/protocol';
import type { GameOptions } from '../game-service.js';
import type { Player } from '../player.js';

/** A seek as stored: the columns of `seeks`. */
export interface StoredSeek {
  readonly id: string;
  readonly player_id: string;
  readonly player_name: string;
  readonly rating: number;
  readonly pool_key: string;
  /** a TimeControl, as written */
  readonly time_control: unknown;
  readonly rated: boolean;
  readonly ruleset: string;
  readonly handicap: string | null;
  readonly color: string;
  readonly rating_min: number | null;
  readonly rating_max: number | null;
  /** 'open' | 'paired' | 'cancelled' | 'expired' */
  readonly status: string;
  readonly game_id: string | null;
  readonly side: string | null;
  readonly created_at: Date;
  readonly expires_at: Date;
  readonly address_key: string | null;
}

export type NewSeek = Omit<StoredSeek, 'status' | 'game_id' | 'side'>;

/** A challenge or rematch offer as stored: the columns of `challenges`. */
export interface StoredChallenge {
  readonly id: string;
  readonly challenger_id: string;
  readonly challenger_name: string;
  readonly opponent_id: string;
  readonly opponent_name: string;
  readonly time_control: unknown;
  readonly rated: boolean;
  readonly ruleset: string;
  readonly handicap: string | null;
  readonly sfen: string | null;
  /** the challenger's colour preference */
  readonly color: string;
  /** 'pending' | 'accepted' | 'declined' | 'cancelled' | 'expired' */
  readonly status: string;
  readonly game_id: string | null;
  readonly rematch_of: string | null;
  readonly created_at: Date;
  readonly expires_at: Date;
}

export type NewChallenge = Omit<StoredChallenge, 'status' | 'game_id'>;

/** The game service, as much as the lobby uses. */
export interface LobbyGames {
  createGame(body: CreateGameBody, options?: GameOptions): Promise<GameView>;
  /** Throws ApiError GAME_NOT_FOUND. */
  view(gameId: string): Promise<GameView>;
}

/**
 * The bots this gateway runs and hands games to (plugins/lobby.ts, over the BotRegistry). Such
 * a bot plays any number of games at once, so the one-real-time-game rule holds only its
 * opponent; a casual rematch offered to it is accepted at once on its behalf.
 */
export interface LobbyBots {
  runs(playerId: string): boolean;
  /** gives the bot its game, after the commit; it plays it through the public API */
  join(playerId: string, game: GameView): void;
}

export interface Transactional<Tx> {
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
}

export interface PlayingReads {
  /** The player's oldest ongoing game with a time control of one of `kinds`, or null. */
  ongoingGameOf(playerId: string, kinds: readonly string[]): Promise<string | null>;
  /** The rated games the two players started together (either colour, aborted ones too) since `since`. */
  ratedGamesBetween(a: string, b: string, since: Date): Promise<number>;
}

export interface BotReads {
  /** Whether the player is a bot account (false for guests). */
  isBotAccount(playerId: string): Promise<boolean>;
}

export interface MarkReads {
  /** Whether a moderator has marked the account for engine use (fair play), now. */
  isEngineMarked(playerId: string): Promise<boolean>;
}

export interface SeekCounts {
  countOpenSeeks(playerId: string, at: Date): Promise<number>;
  /** open seeks posted from one client address (its key) */
  countOpenSeeksFrom(addressKey: string, at: Date): Promise<number>;
}

export interface QuotaLocks {
  /** The lock of one player's (or, for 'seeks-by-address', one address's) quota. */
  lockQuota(kind: 'seeks' | 'seeks-by-address' | 'challenges', owner: string): Promise<void>;
}

/** What starting a game needs inside its transaction, a pairing's or an acceptance's. */
export interface StartTx extends PlayingReads, BotReads {
  /** The players' locks, taken in id order. */
  lockPlayers(playerIds: readonly string[]): Promise<void>;
  /** `kinds`: only seeks with a time control of these kinds. */
  withdrawOpenSeeks(playerIds: readonly string[], at: Date, kinds?: readonly string[]): Promise<number>;
}

export interface SeekTx extends StartTx, SeekCounts, QuotaLocks, MarkReads {
  lockSeekPool(poolKey: string): Promise<void>;
  /** open seeks of the pool by other players, oldest first */
  openSeeksInPool(poolKey: string, excludingPlayer: string, at: Date): Promise<StoredSeek[]>;
  /** Runs `fn` in a savepoint, undone with the locks it took when `fn` answers undefined. */
  attempt<T>(fn: () => Promise<T | undefined>): Promise<T | undefined>;
  /** undefined when the seek was taken, cancelled or expired meanwhile */
  lockOpenSeek(id: string, at: Date): Promise<StoredSeek | undefined>;
  markSeekPaired(id: string, gameId: string, side: string): Promise<void>;
  insertSeek(seek: NewSeek, paired?: { readonly gameId: string; readonly side: string }): Promise<StoredSeek>;
}

export interface SeekStore extends PlayingReads, BotReads, SeekCounts, Transactional<SeekTx> {
  lobbyRating(playerId: string, timeControl: TimeControl): Promise<number>;
  listOpenSeeks(at: Date): Promise<StoredSeek[]>;
  getSeek(id: string): Promise<StoredSeek | undefined>;
  /** the seek as it is afterwards, cancelled or not; undefined: no such seek */
  cancelSeek(id: string, at: Date): Promise<StoredSeek | undefined>;
}

/** Answering a challenge or rematch offer under its row lock. */
export interface AnswerTx extends StartTx {
  lockChallenge(id: string): Promise<StoredChallenge | undefined>;
  closeChallenge(
    id: string,
    status: 'accepted' | 'declined' | 'cancelled',
    gameId?: string | null,
  ): Promise<StoredChallenge>;
  insertChallenge(challenge: NewChallenge): Promise<StoredChallenge>;
}

export interface ChallengeTx extends AnswerTx, QuotaLocks {
  countPendingChallenges(challengerId: string, at: Date): Promise<number>;
}

export interface ChallengeStore extends PlayingReads, BotReads, Transactional<ChallengeTx> {
  getChallenge(id: string): Promise<StoredChallenge | undefined>;
  /** the player's latest challenges, received and sent, newest first */
  listChallenges(playerId: string): Promise<{ incoming: StoredChallenge[]; outgoing: StoredChallenge[] }>;
  playerById(id: string): Promise<Player | null>;
  /** the player of the account with this username (case-insensitive), or null */
  accountHolder(username: string): Promise<Player | null>;
  /** players with exactly this name, at most two */
  playersNamed(name: string): Promise<Player[]>;
}

export interface RematchTx extends AnswerTx {
  /** serializes the rematch offers of one game */
  lockRematches(gameId: string): Promise<void>;
  /** the game's rematch offers still live or accepted, newest first */
  rematchesOf(gameId: string, at: Date): Promise<StoredChallenge[]>;
}

export interface RematchStore extends Transactional<RematchTx> {
  /** the handicap the game was played with, which its view does not show */
  handicapOf(gameId: string): Promise<string | null>;
  /** the tournament the game was played in, or null: a tournament's games have no rematch */
  tournamentOf(gameId: string): Promise<string | null>;
}

export interface LobbyTx extends SeekTx, ChallengeTx, RematchTx {}

export interface LobbyStore extends SeekStore, ChallengeStore, RematchStore {
  transaction<T>(fn: (tx: LobbyTx) => Promise<T>): Promise<T>;
}
