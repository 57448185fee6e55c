/**
 * One CSA connection: its login, its wait for an opponent, the proposal it agrees to or
 * rejects, then its game (player-game.ts). Lines from the client are handled one after
 * another; what the gateway's channel brings (a proposal, the start, a rejection) and what the
 * game's channel brings (moves, the end) is written as it comes.
 *
 * A plain-mode connection is closed after its game (or a rejected proposal), as
 * shogi-server does; an x1 one stays and may look for another game.
 */
import { randomUUID } from 'node:crypto';
import type { Side } from '@shogi/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { GameService } from '../domain/game-service.js';
import type { Hub } from '../domain/hub.js';
import type { Player } from '../domain/player.js';
import type { CsaGameName } from './game-name.js';
import { type ClientLine, LOGIN_INCORRECT, LOGOUT_COMPLETED, loginOk, rejectLine, startLine, x1Line } from './lines.js';
import { type LoginDeps, login } from './login.js';
import type { Monitor } from './monitor.js';
import type { PairingStore, Proposal, SessionMessage, WaitingEntry } from './pairing-store.js';
import { WAITING_TTL_MS } from './pairing-store.js';
import { PlayerGame } from './player-game.js';
import { agreeToProposal, announce, proposalOf, rejectProposal } from './proposals.js';
import { summaryLines } from './summary.js';
import { type X1Context, type X1Host, x1Command } from './x1-commands.js';
import { chatLine, type Presence } from './x1-lines.js';

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
  /** Starts the game both players of the proposal agreed to; throws ApiError (ALREADY_PLAYING...). */
  startGame(proposal: Proposal): Promise<{ readonly createdAt: string; readonly initialSfen: string }>;
  /** The player's rating in the category of the game's clock (Floodgate rounds pair by it). */
  ratingOf(playerId: string, game: CsaGameName): Promise<number>;
  /** how long a proposal waits for both AGREEs, ms (shogi-server's 120 s) */
  readonly agreeTimeoutMs: number;
  /** the move limit of the games it proposes (Floodgate's 256) */
  readonly maxMoves: number;
  readonly x1: X1Context;
  readonly log: FastifyBaseLogger;
  /** told once a game of a player here has ended */
  readonly gameEnded: (gameId: string) => void;
}

/** shogi-server's statuses, as %%WHO shows them; null: not shown */
const STATUS = {
  login: null,
  idle: 'connected',
  waiting: 'game_waiting',
  proposed: 'agree_waiting',
  playing: 'game',
  closed: null,
} as const satisfies Record<State['kind'], string | null>;

type State =
  | { readonly kind: 'login' }
  | { readonly kind: 'idle' }
  | {
      readonly kind: 'waiting';
      readonly game: CsaGameName;
      readonly entry: WaitingEntry;
      readonly renew: NodeJS.Timeout;
    }
  | {
      readonly kind: 'proposed';
      readonly proposal: Proposal;
      readonly side: Side;
      agreed: boolean;
      readonly timer: NodeJS.Timeout;
    }
  | { readonly kind: 'playing'; readonly game: PlayerGame }
  | { readonly kind: 'closed' };

/** Lines a client may send ahead of its turn (shogi-server defers a move sent early); more close the connection. */
const MAX_QUEUED_LINES = 16;

export class CsaSession {
  readonly id = randomUUID();
  private state: State = { kind: 'login' };
  private player: Player | null = null;
  private name = '';
  private trip = false;
  private x1 = false;
  private queue: Promise<void> = Promise.resolve();
  private queued = 0;
  /** the x1 mode's monitored games */
  private readonly monitors = new Map<string, Monitor>();

  private readonly context: SessionContext;
  private readonly connection: Connection;
  private readonly onClosed: (session: CsaSession) => void;

  constructor(context: SessionContext, connection: Connection, onClosed: (session: CsaSession) => void) {
    this.context = context;
    this.connection = connection;
    this.onClosed = onClosed;
  }

  get closed(): boolean {
    return this.state.kind === 'closed';
  }

  /** What %%WHO shows of this session; null before its login and once closed. */
  get presence(): Presence | null {
    const status = STATUS[this.state.kind];
    return status === null ? null : { name: this.name, mode: this.x1 ? 'x1' : 'CSA', status };
  }

  private moveTo(state: State): void {
    this.state = state;
    this.context.x1.presence(this.id, this.presence);
  }

  /** A %%CHAT line: an x1 player hears it while it is not in a proposal or a game. */
  hear(from: string, text: string): void {
    if (this.x1 && (this.state.kind === 'idle' || this.state.kind === 'waiting'))
      this.connection.write([chatLine(from, text)]);
  }

  /** A line from the client. Garbage closes the connection (the listener's), nothing else is disturbed. */
  receive(line: ClientLine): void {
    if (this.closed) return;
    if (line.kind === 'keepalive') {
      this.connection.write(['']);
      return;
    }
    if (line.kind === 'garbage') {
      this.context.log.debug({ reason: line.reason }, 'csa: garbage line, closing');
      this.close();
      return;
    }
    if (++this.queued > MAX_QUEUED_LINES) {
      this.context.log.debug('csa: too many lines ahead of the game, closing');
      this.close();
      return;
    }
    this.queue = this.queue
      .then(() => (this.closed ? undefined : this.handle(line)))
      .catch((err: unknown) => {
        this.context.log.error({ err }, 'csa: line failed, closing');
        this.close();
      })
      .finally(() => {
        this.queued--;
      });
  }

  private async handle(line: Exclude<ClientLine, { kind: 'keepalive' | 'garbage' }>): Promise<void> {
    const state = this.state;
    if (state.kind === 'login') {
      if (line.kind !== 'login') return this.close();
      return this.login(line);
    }
    switch (line.kind) {
      case 'login':
        // one login a connection
        return this.close();
      case 'logout':
        this.connection.write([LOGOUT_COMPLETED]);
        return this.close();
      case 'agree':
      case 'reject':
        if (state.kind !== 'proposed' || (line.gameId !== null && line.gameId !== state.proposal.gameId)) return;
        return line.kind === 'agree' ? this.agree(state) : this.reject(state.proposal, this.name);
      case 'move':
      case 'special':
        if (state.kind !== 'playing') return;
        return state.game.play(line);
      case 'x1':
        return this.command(line);
      default:
        return line satisfies never;
    }
  }

  // --- login and the wait for an opponent ---------------------------------------------

  private async login(line: Extract<ClientLine, { kind: 'login' }>): Promise<void> {
    const outcome = await login(this.context.login, line, this.connection.ip);
    if (!outcome.ok) {
      this.context.log.debug({ reason: outcome.reason }, 'csa: login refused');
      this.connection.write([LOGIN_INCORRECT]);
      return this.close();
    }
    this.player = outcome.player;
    this.name = outcome.name;
    this.trip = outcome.trip;
    this.x1 = line.x1;
    this.connection.write(this.x1 ? [loginOk(this.name), x1Line('LOGIN', '+OK x1')] : [loginOk(this.name)]);
    if (outcome.game === null) {
      this.moveTo({ kind: 'idle' });
      return;
    }
    await this.seek(outcome.game, false);
  }

  /**
   * Waits for an opponent under the game name: paired at once with one waiting, else queued
   * (a challenge is not: it answers false when nobody waits).
   */
  private async seek(game: CsaGameName, challenge: boolean): Promise<boolean> {
    const player = this.player as Player;
    const entry: WaitingEntry = {
      sessionId: this.id,
      gatewayId: this.context.gatewayId,
      playerId: player.id,
      name: this.name,
      side: game.side,
      trip: this.trip,
      rating: game.floodgate ? await this.context.ratingOf(player.id, game) : 0,
    };
    const { pairing } = this.context;
    // renewed while it waits: the entry of a session that is gone lapses
    const renew = setInterval(() => {
      pairing
        .renew(game.name, entry, Date.now())
        .then(() => (game.floodgate ? pairing.addRoundName(game.name) : undefined))
        .catch((err: unknown) => {
          this.context.log.warn({ err }, 'csa: waiting entry not renewed');
        });
    }, WAITING_TTL_MS / 3);
    renew.unref();
    const waiting: State = { kind: 'waiting', game, entry, renew };
    this.moveTo(waiting);
    if (game.floodgate) {
      // the name after the entry: a round that finds the name finds the entry
      await pairing.enqueue(game.name, entry, Date.now());
      await pairing.addRoundName(game.name);
      return true;
    }
    const opponent = await pairing.pairOrWait(game.name, entry, Date.now(), !challenge);
    if (opponent !== null) {
      await announce(pairing, proposalOf(game, opponent, entry, Math.random() < 0.5, this.context.maxMoves));
      return true;
    }
    if (!challenge) return true;
    clearInterval(renew);
    if (this.state === waiting) this.moveTo({ kind: 'idle' });
    return false;
  }

  /** Leaves the queue it waits in, if any (x1: %%GAME again). */
  private async stopWaiting(): Promise<void> {
    const state = this.state;
    if (state.kind !== 'waiting') return;
    clearInterval(state.renew);
    this.moveTo({ kind: 'idle' });
    await this.context.pairing.leave(state.game.name, state.entry);
  }

  /** A message for this session from the gateway's channel. */
  deliver(message: SessionMessage): void {
    const state = this.state;
    switch (message.type) {
      case 'proposal': {
        const { proposal } = message;
        if (state.kind !== 'waiting' || state.game.name !== proposal.gameName) {
          // taken by a round while it was being paired otherwise, or no longer waiting
          this.reject(proposal, this.name).catch((err: unknown) =>
            this.context.log.warn({ err }, 'csa: reject failed'),
          );
          return;
        }
        clearInterval(state.renew);
        const side: Side = proposal.sente.sessionId === this.id ? 'sente' : 'gote';
        const timer = setTimeout(() => this.agreeTimedOut(), this.context.agreeTimeoutMs);
        timer.unref();
        this.moveTo({ kind: 'proposed', proposal, side, agreed: false, timer });
        this.connection.write(
          summaryLines(
            {
              gameId: proposal.gameId,
              senteName: proposal.sente.name,
              goteName: proposal.gote.name,
              timeControl: proposal.timeControl,
              initialSfen: proposal.initialSfen,
              maxMoves: proposal.maxMoves,
            },
            side,
          ),
        );
        return;
      }
      case 'start':
        if (state.kind !== 'proposed' || state.proposal.gameId !== message.gameId) return;
        clearTimeout(state.timer);
        this.follow(state.proposal.gameId, state.side, message);
        return;
      case 'reject':
        if (state.kind !== 'proposed' || state.proposal.gameId !== message.gameId) return;
        clearTimeout(state.timer);
        this.connection.write([rejectLine(message.gameId, message.by)]);
        this.afterGame();
        return;
      default:
        message satisfies never;
    }
  }

  private async agree(state: Extract<State, { kind: 'proposed' }>): Promise<void> {
    if (state.agreed) return;
    state.agreed = true;
    const { pairing, startGame, log } = this.context;
    await agreeToProposal(pairing, state.proposal, state.side, startGame, log);
  }

  private reject(proposal: Proposal, by: string): Promise<void> {
    return rejectProposal(this.context.pairing, proposal, by);
  }

  /** No start in time: rejected by whoever did not agree (this player, unless it did). */
  private agreeTimedOut(): void {
    const state = this.state;
    if (state.kind !== 'proposed') return;
    const { proposal } = state;
    const other = state.side === 'sente' ? proposal.gote : proposal.sente;
    this.reject(proposal, state.agreed ? other.name : this.name).catch((err: unknown) =>
      this.context.log.warn({ err }, 'csa: reject after the agree timeout failed'),
    );
  }

  // --- the game --------------------------------------------------------------------------

  /** START, then the game's lines from its events, from the first on. */
  private follow(gameId: string, side: Side, started: { createdAt: string; initialSfen: string }): void {
    const game = new PlayerGame(this.context, this.player as Player, { gameId, side, ...started }, `csa-${this.id}`, {
      write: (lines) => this.connection.write(lines),
      ended: () => this.afterGame(),
      failed: () => this.close(),
    });
    this.moveTo({ kind: 'playing', game });
    this.connection.write([startLine(gameId)]);
    game.start();
  }

  /** After a game or a rejected proposal: the plain mode's connection ends, the x1 mode's stays. */
  private afterGame(): void {
    const state = this.state;
    if (state.kind === 'playing') state.game.close();
    this.moveTo({ kind: 'idle' });
    if (!this.x1) this.close();
  }

  // --- the x1 mode -----------------------------------------------------------------------

  private async command(line: Extract<ClientLine, { kind: 'x1' }>): Promise<void> {
    // a plain-mode client sends none of these: it is not speaking this protocol
    if (!this.x1) return this.close();
    const host: X1Host = {
      name: this.name,
      ip: this.connection.ip,
      write: (lines) => this.connection.write(lines),
      free: this.state.kind === 'idle' || this.state.kind === 'waiting',
      seek: (game, challenge) => this.seek(game, challenge),
      stopWaiting: () => this.stopWaiting(),
      monitors: this.monitors,
    };
    await x1Command(this.context.x1, host, line);
  }

  // --- the end of the connection ---------------------------------------------------------

  /** The connection is gone, or is to go: leaves the queue, rejects a proposal, stops following a game. */
  close(): void {
    const state = this.state;
    if (state.kind === 'closed') return;
    this.moveTo({ kind: 'closed' });
    for (const monitor of this.monitors.values()) monitor.close();
    this.monitors.clear();
    switch (state.kind) {
      case 'waiting':
        clearInterval(state.renew);
        this.context.pairing
          .leave(state.game.name, state.entry)
          .catch((err: unknown) => this.context.log.warn({ err }, 'csa: waiting entry not removed'));
        break;
      case 'proposed':
        clearTimeout(state.timer);
        this.reject(state.proposal, this.name).catch((err: unknown) =>
          this.context.log.warn({ err }, 'csa: reject on close failed'),
        );
        break;
      case 'playing':
        // the game goes on: a player who left loses on time, as on Floodgate
        state.game.close();
        break;
      default:
        break;
    }
    this.connection.end();
    this.onClosed(this);
  }
}
