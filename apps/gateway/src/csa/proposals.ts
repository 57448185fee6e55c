/**
 * Two waiting players made a proposal (the sides they asked for kept, a coin for the rest),
 * and the proposal told to both, on whichever gateways their sessions are.
 */
import { randomUUID } from 'node:crypto';
import { START_SFEN } from '@shogi/rules';
import type { CsaGameName } from './game-name.js';
import type { PairingStore, Proposal, WaitingEntry } from './pairing-store.js';

/**
 * The proposal between `a` and `b` (whose sides do not clash): one who asked for a side gets
 * it, `coin` (true: `a` is sente) decides when neither asked. Rated when both logged in with a trip.
 */
export function proposalOf(
  game: CsaGameName,
  a: WaitingEntry,
  b: WaitingEntry,
  coin: boolean,
  maxMoves: number,
): Proposal {
  const aSente = a.side !== null ? a.side === 'sente' : b.side !== null ? b.side === 'gote' : coin;
  return {
    gameId: randomUUID(),
    gameName: game.name,
    timeControl: game.timeControl,
    initialSfen: START_SFEN,
    maxMoves,
    rated: a.trip && b.trip,
    sente: aSente ? a : b,
    gote: aSente ? b : a,
  };
}

/** Records the proposal, then tells both sessions. */
export async function announce(pairing: PairingStore, proposal: Proposal): Promise<void> {
  await pairing.propose(proposal);
  await Promise.all(
    [proposal.sente, proposal.gote].map((entry) =>
      pairing.send(entry.gatewayId, { to: entry.sessionId, message: { type: 'proposal', proposal } }),
    ),
  );
}
