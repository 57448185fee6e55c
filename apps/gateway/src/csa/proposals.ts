/**
 * Two waiting players made a proposal (the sides they asked for kept, a coin for the rest),
 * the proposal told to both, on whichever gateways their sessions are, and its end: the game
 * started once both agreed, or the proposal rejected.
 *
 * Once both players agreed the game is started, never dropped: the gateway that records the
 * second AGREE claims the start for a lease and creates the game under the proposal's id. A
 * player who agreed asks again while it waits (`agreeToProposal`), so when that gateway dies
 * between its claim and the START, the next one to ask after the lease starts the game (or
 * finds it created, and tells START). Only the start itself may refuse it (a player in
 * another real-time game): then both are told REJECT.
 */
import { randomUUID } from 'node:crypto';
import type { Side } from '@shogi/protocol';
import { HANDICAP_SFENS, START_SFEN } from '@shogi/rules';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError, isUnavailable } from '../domain/api-error.js';
import type { CsaGameName } from './game-name.js';
import type { PairingStore, Proposal, SessionMessage, StartedGame, WaitingEntry } from './pairing-store.js';

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

/** Rejects the proposal by `by` and tells both players; nothing when it is rejected already or agreed by both. */
export async function rejectProposal(pairing: PairingStore, proposal: Proposal, by: string): Promise<void> {
  if ((await pairing.withdraw(proposal.gameId, by)) === null) return;
  await tellBoth(pairing, proposal, { type: 'reject', gameId: proposal.gameId, by });
}

/** Creates the agreed game (an existing game under the proposal's id is its start); throws ApiError when refused. */
export type StartGame = (proposal: Proposal) => Promise<StartedGame>;

/**
 * `side`'s AGREE, recorded, or asked again. The caller that holds the start claim starts the
 * game and tells both START (or REJECT when the start is refused). What is decided already
 * (started, rejected, lapsed) is answered as the message for the caller's own session, whose
 * earlier message may have been lost with a gateway; null when there is none yet.
 */
export async function agreeToProposal(
  pairing: PairingStore,
  proposal: Proposal,
  side: Side,
  startGame: StartGame,
  leaseMs: number,
  log: FastifyBaseLogger,
): Promise<SessionMessage | null> {
  const { gameId } = proposal;
  const outcome = await pairing.agree(gameId, side, leaseMs);
  switch (outcome.kind) {
    case 'wait':
      return null;
    case 'started':
      return { type: 'start', gameId, ...outcome.start };
    case 'rejected':
      return { type: 'reject', gameId, by: outcome.by };
    case 'gone':
      // it lapsed without a start: failed for want of the other player
      return { type: 'reject', gameId, by: proposal[side === 'sente' ? 'gote' : 'sente'].name };
    case 'start':
      await startAgreed(pairing, proposal, side, outcome.token, startGame, log);
      return null;
    default:
      return outcome satisfies never;
  }
}

/** Starts the agreed game under the claim `token`, and tells both players how it went. */
async function startAgreed(
  pairing: PairingStore,
  proposal: Proposal,
  side: Side,
  token: string,
  startGame: StartGame,
  log: FastifyBaseLogger,
): Promise<void> {
  const { gameId } = proposal;
  let started: StartedGame;
  try {
    started = await startGame(proposal);
  } catch (err) {
    if (!(err instanceof ApiError) || err.code === 'INTERNAL' || isUnavailable(err)) {
      // the game may exist or not: the claim lapses, and the next AGREE asked again finds out
      log.warn({ err, gameId }, 'csa: the agreed game did not start, left to a retry');
      return;
    }
    log.info({ err, gameId }, 'csa: the agreed game was refused');
    const playing = err.code === 'ALREADY_PLAYING' ? err.detail?.split(' ')[0] : undefined;
    const by = playing ?? proposal[side].name;
    if (await pairing.refuse(gameId, token, by)) await tellBoth(pairing, proposal, { type: 'reject', gameId, by });
    return;
  }
  await pairing.started(gameId, started);
  await tellBoth(pairing, proposal, { type: 'start', gameId, ...started });
}

/** Records the proposal, then tells both sessions. */
export async function announce(pairing: PairingStore, proposal: Proposal): Promise<void> {
  await pairing.propose(proposal);
  await tellBoth(pairing, proposal, { type: 'proposal', proposal });
}
