/**
 * One CSA player's game, once it has started: the game's events become the player's lines
 * (play-lines.ts), and the player's moves and specials become game commands through the game
 * service. A move sent before the player's turn waits for it, as shogi-server defers one.
 */
import { metrics } from '@shogi/metrics';
import type { Side } from '@shogi/protocol';
import { usiOfCsaMove } from '@shogi/rules';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError, isUnavailable } from '../domain/api-error.js';
import type { GameService } from '../domain/game-service.js';
import type { Player } from '../domain/player.js';
import { type FollowDeps, type Following, followGame } from './game-follower.js';
import type { ClientLine } from './lines.js';
import { newPlayView, onMove, type PlayView, playLines } from './play-lines.js';

export interface PlayerGameDeps extends FollowDeps {
  readonly games: FollowDeps['games'] & Pick<GameService, 'submitMove' | 'resign' | 'declareImpasse' | 'abort'>;
  readonly log: FastifyBaseLogger;
  /** told once the game has ended (its players' engine comments are then kept as its players' analysis) */
  readonly gameEnded?: (gameId: string) => void;
}

/** What the game tells its session. */
export interface PlayerGameOut {
  write(lines: readonly string[]): void;
  /** the game ended: its last lines are written */
  ended(): void;
  /** the game cannot be followed or played on (the server's failure): the session closes */
  failed(): void;
}

/** Retries of a command that failed on the server's side (a move carries an idempotency key). */
const ATTEMPTS = 3;

export class PlayerGame {
  readonly view: PlayView;
  private readonly deps: PlayerGameDeps;
  private readonly player: Player;
  private readonly out: PlayerGameOut;
  /** the key of this player's submissions, with the ply: a retry records nothing twice */
  private readonly keyPrefix: string;
  private following: Following | null = null;
  private closed = false;
  /** wakes a move that waits for the player's turn */
  private wake: (() => void) | null = null;
  /** when the player's move awaiting its verdict was read (performance.now()), for the echo's histogram */
  private moveReadAt: number | null = null;

  constructor(
    deps: PlayerGameDeps,
    player: Player,
    game: { readonly gameId: string; readonly side: Side; readonly createdAt: string; readonly initialSfen: string },
    keyPrefix: string,
    out: PlayerGameOut,
  ) {
    this.deps = deps;
    this.player = player;
    this.out = out;
    this.keyPrefix = keyPrefix;
    this.view = newPlayView(game, game.side);
  }

  /** Follows the game from its first event. */
  start(): void {
    const { gameId } = this.view;
    this.following = followGame(
      this.deps,
      gameId,
      0,
      (events) => {
        const lines = playLines(this.view, events);
        if (lines.length > 0) this.out.write(lines);
        // the verdict clears the pending move: its echo (or the game's end) has just been written
        if (this.moveReadAt !== null && !this.view.pending) {
          metrics.csaEchoSeconds.observe((performance.now() - this.moveReadAt) / 1000);
          this.moveReadAt = null;
        }
        this.wake?.();
        if (this.view.ended) {
          this.out.ended();
          this.deps.gameEnded?.(gameId);
        }
      },
      (err) => {
        this.deps.log.warn({ err, gameId }, 'csa: the game cannot be followed');
        this.out.failed();
      },
    );
  }

  /** Stops following the game (it goes on: a player who left loses on time). */
  close(): void {
    this.closed = true;
    this.following?.close();
    this.wake?.();
  }

  /** A move or a special move from the player. */
  async play(line: Extract<ClientLine, { kind: 'move' | 'special' }>): Promise<void> {
    const { games } = this.deps;
    const { view, player } = this;
    if (line.kind === 'special' && line.move === '%CHUDAN') {
      // a request to interrupt the game: this server's abort, which only a player who has not
      // moved yet may make (refused later, and nothing is written: the game goes on)
      await this.attempt(() => games.abort(view.gameId, player));
      return;
    }
    if (!(await this.turn())) return;
    // from the player's turn: a move sent early waits for it, and that wait is not the server's
    const readAt = performance.now();
    if (line.kind === 'special') {
      if (line.move === '%TORYO') await this.attempt(() => games.resign(view.gameId, player));
      else await this.attempt(() => games.declareImpasse(view.gameId, player));
      return;
    }
    // a statement that cannot be read on this position is submitted as sent: in a CSA game an
    // illegal move loses, and the game records what was sent with its rejection
    const read = usiOfCsaMove(view.sfen, line.move);
    const usi = read.ok ? read.value : line.move.slice(0, 16);
    const idempotencyKey = `${this.keyPrefix}-${view.ply}`;
    // no second move of this player's until this one's verdict (the events clear it)
    view.pending = true;
    this.moveReadAt = readAt;
    const comment = line.comment === null ? {} : { comment: line.comment };
    const done = await this.attempt(() =>
      games.submitMove(view.gameId, player, { usi, ply: view.ply, idempotencyKey, ...comment }),
    );
    if (!done) {
      view.pending = false;
      this.moveReadAt = null;
    }
  }

  /** Resolves true once the player may move, false when the game ends (or is left) first. */
  private async turn(): Promise<boolean> {
    while (!onMove(this.view)) {
      if (this.view.ended || this.closed) return false;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = null;
    }
    return !this.closed;
  }

  /** A game command: true once recorded; false when refused as the game stands (its events tell the rest). */
  private async attempt(command: () => Promise<unknown>): Promise<boolean> {
    const { log } = this.deps;
    for (let attempt = 1; ; attempt++) {
      try {
        await command();
        return true;
      } catch (err) {
        if (err instanceof ApiError && err.code !== 'INTERNAL' && err.code !== 'CONFLICT') {
          log.debug({ err }, 'csa: command refused');
          return false;
        }
        if (attempt >= ATTEMPTS) {
          log.error({ err }, 'csa: command failed');
          this.out.failed();
          return false;
        }
        if (!isUnavailable(err)) log.warn({ err }, 'csa: command failed, retrying');
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
  }
}
