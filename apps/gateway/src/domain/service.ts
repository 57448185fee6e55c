/** What the routes need from the game domain; implemented over the event store in game-service.ts. */
import type { Verdict } from '@shogi/pipeline';
import type { CreateGameBody, GameView, Side, WireEvent } from '@shogi/protocol';

export interface Player {
  readonly id: string;
  readonly name: string;
}

export interface Submission {
  readonly usi: string;
  readonly ply: number;
  readonly idempotencyKey?: string | undefined;
}

export interface GameService {
  createPlayer(name: string): Promise<Player & { token: string }>;
  createGame(body: CreateGameBody): Promise<GameView>;
  /** Throws ApiError GAME_NOT_FOUND. */
  view(gameId: string): Promise<GameView>;
  /** Throws ApiError GAME_NOT_FOUND. */
  eventsAfter(gameId: string, afterSeq: number, limit?: number): Promise<WireEvent[]>;
  /**
   * The player's side in the game and the game's last seq, from one read of the log;
   * throws GAME_NOT_FOUND or NOT_A_PLAYER.
   */
  seatOf(gameId: string, playerId: string): Promise<{ side: Side; lastSeq: number }>;
  /**
   * Durable MoveSubmitted, its job enqueued (a job Redis cannot take is left to the sweeper:
   * a recorded submission is always answered); throws ApiError with a catalog code.
   */
  submitMove(gameId: string, player: Player, move: Submission): Promise<{ seq: number }>;
  /** Resigned + GameEnded; the same player's replay of the key answers the same seq. */
  resign(gameId: string, player: Player, idempotencyKey?: string): Promise<{ seq: number }>;
  /** GameEnded 'abort' before the player's first move; throws TOO_LATE_TO_ABORT, NOT_A_PLAYER, GAME_OVER... */
  abort(gameId: string, player: Player, idempotencyKey?: string): Promise<{ seq: number }>;
  /** ImpasseDeclared + GameEnded (the declarer wins if valid, else loses); throws NOT_YOUR_TURN, GAME_OVER... */
  declareImpasse(gameId: string, player: Player, idempotencyKey?: string): Promise<{ seq: number }>;
  /** Events seen on the hub: keeps the cached state of a watched game current. */
  observe(gameId: string, published: readonly unknown[]): void;
  /** Normalizes an event published by the worker on Redis into the wire shape. */
  toWire(published: unknown): WireEvent | null;
  /** The verdict an event carries on a submission, or null when it is no verdict. */
  verdictOf(event: WireEvent): Verdict | null;
  /** The side that made the submission an event records, or null when it is no submission. */
  submitterOf(event: WireEvent): Side | null;
}
