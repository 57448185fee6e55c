/**
 * A session's proposal, between its Game_Summary and START or REJECT: which side it plays,
 * the summary it is shown, and who a proposal that timed out is rejected by. Pure: the
 * session (session.ts) writes the lines and the shared proposal is proposals.ts'.
 */
import type { Side } from '@shogi/protocol';
import type { Proposal } from './pairing-store.js';
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
