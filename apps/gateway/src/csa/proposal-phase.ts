/**
 * A session's proposal, between its Game_Summary and START or REJECT: the side it plays, the
 * summary it is shown, its AGREE (asked again while the start is awaited, so that a start lost
 * with another gateway is recovered: proposals.ts), and the agree timeout, after which the
 * proposal is rejected by whoever did not agree.
 */
import type { Side } from '@shogi/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { PairingStore, Proposal, SessionMessage } from './pairing-store.js';
import { agreeToProposal, rejectProposal, type StartGame } from './proposals.js';
import { summaryLines } from './summary.js';

/** The side the session `sessionId` plays in the proposal. */
export const sideIn = (proposal: Proposal, sessionId: string): Side =>
  proposal.sente.sessionId === sessionId ? 'sente' : 'gote';

/** The Game_Summary the player of `side` is shown. */
export const proposalSummary = (proposal: Proposal, side: Side): string[] =>
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
  );

/** No start in time: rejected by whoever did not agree (this player of `side`, unless it did). */
export function timedOutBy(proposal: Proposal, side: Side, agreed: boolean): string {
  const other = side === 'sente' ? proposal.gote : proposal.sente;
  return agreed ? other.name : proposal[side].name;
}

export interface ProposalDeps {
  readonly pairing: PairingStore;
  readonly startGame: StartGame;
  /** how long a proposal waits for both AGREEs, ms */
  readonly agreeTimeoutMs: number;
  /** how long a start claim is held, ms: a player who agreed asks again twice in that time */
  readonly startLeaseMs: number;
  readonly log: FastifyBaseLogger;
}

/** One session's side of a proposal until it is started or rejected (`stop`). */
export class PendingProposal {
  readonly proposal: Proposal;
  readonly side: Side;
  private readonly deps: ProposalDeps;
  /** what the proposal's end tells the session (a START or a REJECT it may have missed) */
  private readonly tell: (message: SessionMessage) => void;
  private agreed = false;
  private stopped = false;
  private asking = false;
  private readonly timeout: NodeJS.Timeout;
  private again: NodeJS.Timeout | null = null;

  constructor(deps: ProposalDeps, proposal: Proposal, sessionId: string, tell: (message: SessionMessage) => void) {
    this.deps = deps;
    this.proposal = proposal;
    this.side = sideIn(proposal, sessionId);
    this.tell = tell;
    this.timeout = setTimeout(() => this.timedOut(), deps.agreeTimeoutMs);
    this.timeout.unref();
  }

  /** The Game_Summary this player is shown. */
  get summary(): string[] {
    return proposalSummary(this.proposal, this.side);
  }

  /** This player's AGREE; asked again until the proposal ends for it. */
  async agree(): Promise<void> {
    if (this.agreed || this.stopped) return;
    this.agreed = true;
    await this.ask();
    if (this.stopped) return;
    this.again = setInterval(() => {
      this.ask().catch(() => undefined);
    }, this.deps.startLeaseMs / 2);
    this.again.unref();
  }

  /** This player's REJECT (or its leaving). */
  reject(by: string): Promise<void> {
    return rejectProposal(this.deps.pairing, this.proposal, by);
  }

  /** The proposal ended for this session: no timeout, no more asking. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timeout);
    if (this.again !== null) clearInterval(this.again);
  }

  private async ask(): Promise<void> {
    if (this.asking || this.stopped) return;
    this.asking = true;
    const { pairing, startGame, startLeaseMs, log } = this.deps;
    try {
      const message = await agreeToProposal(pairing, this.proposal, this.side, startGame, startLeaseMs, log);
      if (message !== null && !this.stopped) this.tell(message);
    } catch (err) {
      log.warn({ err, gameId: this.proposal.gameId }, 'csa: agree not recorded, asked again later');
    } finally {
      this.asking = false;
    }
  }

  private timedOut(): void {
    if (this.stopped) return;
    this.reject(timedOutBy(this.proposal, this.side, this.agreed)).catch((err: unknown) =>
      this.deps.log.warn({ err }, 'csa: reject after the agree timeout failed'),
    );
  }
}
