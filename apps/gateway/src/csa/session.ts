/**
 * One CSA connection: its login, its wait for an opponent (waiting.ts), the proposal it
 * agrees to or rejects (proposal-phase.ts, proposals.ts), then its game (player-game.ts).
 * Lines from the client are handled one after another; what the gateway's channel brings (a
 * proposal, the start, a rejection) and what the game's channel brings (moves, the end) is
 * written as it comes.
 *
 * A plain-mode connection is closed after its game (or a rejected proposal), as
 * shogi-server does; an x1 one stays and may look for another game.
 */
import { randomUUID } from 'node:crypto';
import type { Side } from '@shogi/protocol';
import type { Player } from '../domain/player.js';
import type { CsaGameName } from './game-name.js';
import { type ClientLine, LOGIN_INCORRECT, LOGOUT_COMPLETED, loginOk, rejectLine, startLine, x1Line } from './lines.js';
import { login } from './login.js';
import type { Monitor } from './monitor.js';
import type { Proposal, SessionMessage, WaitingEntry } from './pairing-store.js';
import { PlayerGame } from './player-game.js';
import { PendingProposal } from './proposal-phase.js';
import { rejectProposal } from './proposals.js';
import type { Connection, SessionContext } from './session-context.js';
import { isFree, presenceOf, type State } from './session-state.js';
import { joinQueue, keepWaiting } from './waiting.js';
import { type X1Host, x1Command } from './x1-commands.js';
import { chatLine, type Presence } from './x1-lines.js';

export type { Connection, SessionContext } from './session-context.js';

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
    return presenceOf(this.state, this.name, this.x1);
  }

  private moveTo(state: State): void {
    this.state = state;
    this.context.x1.presence(this.id, this.presence);
  }

  /** A %%CHAT line: an x1 player hears it while it is not in a proposal or a game. */
  hear(from: string, text: string): void {
    if (this.x1 && isFree(this.state)) this.connection.write([chatLine(from, text)]);
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
      case 'reject': {
        if (state.kind !== 'proposed') return;
        const { pending } = state;
        if (line.gameId !== null && line.gameId !== pending.proposal.gameId) return;
        return line.kind === 'agree' ? pending.agree() : pending.reject(this.name);
      }
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
    const { pairing, log } = this.context;
    const entry: WaitingEntry = {
      sessionId: this.id,
      gatewayId: this.context.gatewayId,
      playerId: player.id,
      name: this.name,
      side: game.side,
      trip: this.trip,
      rating: game.floodgate ? await this.context.ratingOf(player.id, game) : 0,
    };
    const waiting: State = { kind: 'waiting', game, entry, renew: keepWaiting(pairing, game, entry, log) };
    // waiting before the queue is joined: the proposal of a pairing may come at once
    this.moveTo(waiting);
    if (await joinQueue(pairing, game, entry, challenge, this.context.maxMoves)) return true;
    clearInterval(waiting.renew);
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

  // --- the proposal ----------------------------------------------------------------------

  /** A message for this session from the gateway's channel (or its proposal's own asking). */
  deliver(message: SessionMessage): void {
    const state = this.state;
    if (message.type === 'proposal') {
      this.proposed(message.proposal);
      return;
    }
    if (state.kind !== 'proposed' || state.pending.proposal.gameId !== message.gameId) return;
    const { pending } = state;
    pending.stop();
    if (message.type === 'start') {
      this.follow(message.gameId, pending.side, message);
      return;
    }
    this.connection.write([rejectLine(message.gameId, message.by)]);
    this.afterGame();
  }

  /** A proposal for this session: its summary, then the wait for the AGREEs. */
  private proposed(proposal: Proposal): void {
    const state = this.state;
    if (state.kind !== 'waiting' || state.game.name !== proposal.gameName) {
      // taken by a round while it was being paired otherwise, or no longer waiting
      rejectProposal(this.context.pairing, proposal, this.name).catch((err: unknown) =>
        this.context.log.warn({ err }, 'csa: reject failed'),
      );
      return;
    }
    clearInterval(state.renew);
    const pending = new PendingProposal(this.context, proposal, this.id, (message) => this.deliver(message));
    this.moveTo({ kind: 'proposed', pending });
    this.connection.write(pending.summary);
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
      free: isFree(this.state),
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
        state.pending.stop();
        // rejected unless both agreed: then the game starts, and this player loses it on time
        state.pending
          .reject(this.name)
          .catch((err: unknown) => this.context.log.warn({ err }, 'csa: reject on close failed'));
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
