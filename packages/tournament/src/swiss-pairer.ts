/**
 * The Swiss pairer: the FIDE Dutch system of `@shogi/swiss`, round by round, on the event as its
 * TRF (swiss-trf.ts), the same text `GET /swiss/{id}.trf` serves, so the export replays every
 * round the server paired. A round is due at the start, then `roundInterval` after the last
 * round's last result (`nextSwissRoundAt`); with no interval the organiser's
 * `schedule-next-round` pairs it (`pairSwissRound`, which ignores the schedule).
 */
import { NoValidPairingError, pairDutch, parseTrf, tournamentForNextRound } from '@shogi/swiss';
import type { Pairer, PairingRequest, ProposedPairing } from './pairer.js';
import type { TournamentState } from './state.js';
import { currentSwissRound, nextSwissRoundAt } from './swiss-rounds.js';
import { swissTrf } from './swiss-trf.js';

/** The next round's games (sente first), whoever is due now or not; [] when no pairing exists. */
export function pairSwissRound(state: TournamentState): ProposedPairing[] {
  const swiss = state.terms?.swiss;
  if (state.status !== 'started' || swiss === undefined || state.playing.size > 0) return [];
  const round = currentSwissRound(state) + 1;
  if (round > swiss.nbRounds) return [];
  const active = [...state.players.values()].filter((p) => !p.paused);
  if (active.length < 2) return [];
  const { text, ids } = swissTrf(state, { nextRound: true });
  let pairs: ReturnType<typeof pairDutch>;
  try {
    pairs = pairDutch(tournamentForNextRound(parseTrf(text)));
  } catch (error) {
    // lichess ends a Swiss whose next round cannot be paired; the caller finishes it
    if (error instanceof NoValidPairingError) return [];
    throw error;
  }
  const out: ProposedPairing[] = [];
  for (const { white, black } of pairs) if (black !== null) out.push({ sente: ids[white]!, gote: ids[black]!, round });
  return out;
}

export const swissPairer: Pairer = {
  pair({ state, now }: PairingRequest): ProposedPairing[] {
    const due = nextSwissRoundAt(state);
    if (due === null || now.getTime() < due.getTime()) return [];
    return pairSwissRound(state);
  },
};
