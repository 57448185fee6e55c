/**
 * The wait for an opponent under a game name: the session's entry in the shared queue, kept
 * alive while it waits, and the pairing it meets there (at once, or at a Floodgate round).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { CsaGameName } from './game-name.js';
import type { PairingStore, WaitingEntry } from './pairing-store.js';
import { WAITING_TTL_MS } from './pairing-store.js';
import { announce, proposalOf } from './proposals.js';

/**
 * Renews the entry while its session waits, so that the entry of a session that is gone
 * lapses; a Floodgate name is noted again for the rounds. The caller clears the timer.
 */
export function keepWaiting(
  pairing: PairingStore,
  game: CsaGameName,
  entry: WaitingEntry,
  log: FastifyBaseLogger,
): NodeJS.Timeout {
  const renew = setInterval(() => {
    pairing
      .renew(game.name, entry, Date.now())
      .then(() => (game.floodgate ? pairing.addRoundName(game.name) : undefined))
      .catch((err: unknown) => {
        log.warn({ err }, 'csa: waiting entry not renewed');
      });
  }, WAITING_TTL_MS / 3);
  renew.unref();
  return renew;
}

/**
 * Puts the entry where it meets an opponent: a Floodgate name's queue for the next round;
 * otherwise paired at once with a waiting player (the proposal told to both), else queued.
 * Two players of a handicap game are paired only when one of them asked a side, as on
 * shogi-server: who gives the handicap is chosen, not drawn. A challenge (%%CHALLENGE) is
 * never queued: false when nobody waited.
 */
export async function joinQueue(
  pairing: PairingStore,
  game: CsaGameName,
  entry: WaitingEntry,
  challenge: boolean,
  maxMoves: number,
): Promise<boolean> {
  if (game.floodgate) {
    // the name after the entry: a round that finds the name finds the entry
    await pairing.enqueue(game.name, entry, Date.now());
    await pairing.addRoundName(game.name);
    return true;
  }
  const opponent = await pairing.pairOrWait(game.name, entry, Date.now(), {
    queue: !challenge,
    sideAsked: game.handicap !== null,
  });
  if (opponent !== null) {
    await announce(pairing, proposalOf(game, opponent, entry, Math.random() < 0.5, maxMoves));
    return true;
  }
  return !challenge;
}
