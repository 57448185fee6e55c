/**
 * Two waiting players made a proposal (the sides they asked for kept, a coin for the rest),
 * and the proposal told to both, on whichever gateways their sessions are.
 */
import { randomUUID } from 'node:crypto';
import type { Side } from '@shogi/protocol';
import { HANDICAP_SFENS, START_SFEN } from '@shogi/rules';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError } from '../domain/api-error.js';
import type { CsaGameName } from './game-name.js';
import type { PairingStore, Proposal, SessionMessage, WaitingEntry } from './pairing-store.js';

/**
 * The proposal between `a` and `b` (whose sides do not clash): one who asked for a side gets
 * it, `coin` (true: `a` is sente) decides when neither asked. Rated when both logged in with a
 * trip, a handicap game too (as the lobby's: a named handicap may be rated). In a handicap
 * game gote gives the handicap and moves first, as everywhere on this server.
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
    handicap: game.handicap,
    initialSfen: game.handicap === null ? START_SFEN : HANDICAP_SFENS[game.handicap],
    maxMoves,
    rated: a.trip && b.trip,
    sente: aSente ? a : b,
    gote: aSente ? b : a,
  };
}

/** Tells both players of the proposal one message, on whichever gateways they are. */
export async function tellBoth(pairing: PairingStore, proposal: Proposal, message: SessionMessage): Promise<void> {
  await Promise.all(
    [proposal.sente, proposal.gote].map((entry) => pairing.send(entry.gatewayId, { to: entry.sessionId, message })),
  );
}

/** Withdraws the proposal and tells both players it was rejected by `by`; nothing when it is gone or started. */
export async function rejectProposal(pairing: PairingStore, proposal: Proposal, by: string): Promise<void> {
  if ((await pairing.withdraw(proposal.gameId)) === null) return;
  await tellBoth(pairing, proposal, { type: 'reject', gameId: proposal.gameId, by });
}

/**
 * `side`'s AGREE. The caller that records the second one starts the game (once, of every
 * gateway) and tells both players START, or REJECT when the game cannot start (a player is in
 * another real-time game: rejected by that player).
 */
export async function agreeToProposal(
  pairing: PairingStore,
  proposal: Proposal,
  side: Side,
  startGame: (proposal: Proposal) => Promise<{ readonly createdAt: string; readonly initialSfen: string }>,
  log: FastifyBaseLogger,
): Promise<void> {
  if ((await pairing.agree(proposal.gameId, side)) !== 'start') return;
  let message: SessionMessage;
  try {
    message = { type: 'start', gameId: proposal.gameId, ...(await startGame(proposal)) };
  } catch (err) {
    log.warn({ err, gameId: proposal.gameId }, 'csa: the agreed game did not start');
    const playing = err instanceof ApiError && err.code === 'ALREADY_PLAYING' ? err.detail?.split(' ')[0] : undefined;
    message = { type: 'reject', gameId: proposal.gameId, by: playing ?? proposal[side].name };
  }
  await tellBoth(pairing, proposal, message);
}

/** Records the proposal, then tells both sessions. */
export async function announce(pairing: PairingStore, proposal: Proposal): Promise<void> {
  await pairing.propose(proposal);
  await tellBoth(pairing, proposal, { type: 'proposal', proposal });
}
