// Replaying a finished tournament: each round paired again from the rounds before it and set
// beside the round the file holds (JaVaFo's and bbpPairings' -c).

import { NoValidPairingError, type Pairing, pairDutch } from './dutch.js';
import type { Tournament } from './tournament.js';
import { firstColorOf, roundsInFile, type TrfFile, tournamentAfterRound } from './trf.js';

/** The pairs of one round as the file records them (white first, the bye with black null). */
export function pairingsInFile(file: TrfFile, round: number): Pairing[] {
  const pairs: Pairing[] = [];
  for (const player of file.players) {
    const match = player.matches[round];
    if (match === undefined || !match.participated) continue;
    if (match.opponent === player.id) pairs.push({ white: player.id, black: null });
    else if (match.color === 'w') pairs.push({ white: player.id, black: match.opponent });
  }
  return pairs;
}

/** A canonical text of a round's pairs, board order aside: "1-5 7-2 9-bye" in ascending order. */
export function pairingKey(pairs: readonly Pairing[]): string {
  return pairs
    .map((p) => (p.black === null ? `${p.white + 1}-bye` : `${p.white + 1}-${p.black + 1}`))
    .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10) || a.localeCompare(b))
    .join(' ');
}

export interface RoundCheck {
  /** One-based round number. */
  readonly round: number;
  readonly expected: string;
  readonly actual: string;
  readonly matches: boolean;
}

/** Pairs every round of `file` again and compares each with the file's. */
export function checkTournament(file: TrfFile): RoundCheck[] {
  const rounds = roundsInFile(file);
  const withRounds = file.expectedRounds > 0 ? file : { ...file, expectedRounds: rounds };
  const first = firstColorOf(withRounds);
  const checks: RoundCheck[] = [];
  for (let round = 0; round < rounds; round++) {
    const expected = pairingKey(pairingsInFile(file, round));
    let actual: string;
    try {
      actual = pairingKey(pairDutch(tournamentAfterRound(withRounds, round, first)));
    } catch (error) {
      if (!(error instanceof NoValidPairingError)) throw error;
      actual = 'no valid pairing';
    }
    checks.push({ round: round + 1, expected, actual, matches: expected === actual });
  }
  return checks;
}

/**
 * The published board order (bbpPairings' and JaVaFo's): by the higher player's score, then the
 * lower player's, then the higher player's rank; the bye last.
 */
export function sortPairings(t: Tournament, pairs: readonly Pairing[]): Pairing[] {
  const scoreOf = (id: number): number => t.players[id]!.score;
  const key = (p: Pairing): [number, number, number, number] => {
    if (p.black === null) return [1, -scoreOf(p.white), 0, t.players[p.white]!.rankIndex];
    const a = t.players[p.white]!;
    const b = t.players[p.black]!;
    const aHigher = a.score > b.score || (a.score === b.score && a.rankIndex < b.rankIndex);
    const [higher, lower] = aHigher ? [a, b] : [b, a];
    return [0, -higher.score, -lower.score, higher.rankIndex];
  };
  return [...pairs].sort((x, y) => {
    const kx = key(x);
    const ky = key(y);
    for (let i = 0; i < 4; i++) if (kx[i] !== ky[i]) return kx[i]! - ky[i]!;
    return 0;
  });
}
