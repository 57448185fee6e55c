/**
 * What a CSA session is given: the connection it writes to, and the gateway's services it
 * uses in each phase (login, the wait, the proposal, the game, the x1 commands).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { GameService } from '../domain/game-service.js';
import type { Hub } from '../domain/hub.js';
import type { CsaGameName } from './game-name.js';
import type { LoginDeps } from './login.js';
import type { PairingStore } from './pairing-store.js';
import type { StartGame } from './proposals.js';
import type { X1Context } from './x1-commands.js';

/** Where the session writes: the listener's socket. */
export interface Connection {
  readonly ip: string;
  write(lines: readonly string[]): void;
  /** Ends the connection once what was written has left. */
  end(): void;
}

export interface SessionContext {
  readonly gatewayId: string;
  readonly login: LoginDeps;
  readonly pairing: PairingStore;
  readonly games: Pick<GameService, 'submitMove' | 'resign' | 'declareImpasse' | 'abort' | 'eventsAfter' | 'toWire'>;
  readonly hub: Hub;
  /** Starts the game both players of the proposal agreed to, once under its id; throws ApiError (ALREADY_PLAYING...). */
  readonly startGame: StartGame;
  /** The player's rating in the category of the game's clock (Floodgate rounds pair by it). */
  ratingOf(playerId: string, game: CsaGameName): Promise<number>;
  /** how long a proposal waits for both AGREEs, ms (shogi-server's 120 s) */
  readonly agreeTimeoutMs: number;
  /** how long a gateway's claim to start an agreed game is held before another may take it, ms */
  readonly startLeaseMs: number;
  /** the move limit of the games it proposes (Floodgate's 256) */
  readonly maxMoves: number;
  readonly x1: X1Context;
  readonly log: FastifyBaseLogger;
  /** told once a game of a player here has ended */
  readonly gameEnded: (gameId: string) => void;
}
