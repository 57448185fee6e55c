/**
 * The round-robin: everyone meets everyone once (or twice, colours swapped), round by round
 * from Berger tables (the circle method: one seat fixed, the others turning; FIDE C.05 Annex 1),
 * players seeded by rating. An odd field adds a bye: whoever meets it sits the round out. The
 * next round is paired when every game of the last is scored; a game nobody started by its
 * round's deadline is forfeited by the side that did not show (the caller decides `ForfeitGame`).
 */
import type { Pairer, PairingRequest, ProposedPairing } from './pairer.js';
import type { TournamentState } from './state.js';

/** Seat pairs of round `round` (0-based) of a Berger table for `n` seats (n even): [sente seat, gote seat]. */
export function bergerRound(n: number, round: number): [number, number][] {
  const m = n - 1;
  const fixed = n - 1;
  const out: [number, number][] = [];
  // the fixed seat alternates colours round by round
  out.push(round % 2 === 0 ? [fixed, round % m] : [round % m, fixed]);
  for (let i = 1; i < n / 2; i++) {
    const a = (round + i) % m;
    const b = (round - i + m) % m;
    // along a turn of the circle each seat's distance i changes by one: odd and even alternate its colour
    out.push(i % 2 === 1 ? [a, b] : [b, a]);
  }
  return out;
}

/** The whole table: every round's pairs of player ids (a bye's pair left out), for `cycles` 1 or 2. */
export function bergerTable(playerIds: readonly string[], cycles: 1 | 2): ProposedPairing[][] {
  const seats: (string | null)[] = [...playerIds];
  if (seats.length % 2 === 1) seats.push(null);
  const n = seats.length;
  const rounds: ProposedPairing[][] = [];
  for (let cycle = 0; cycle < cycles; cycle++)
    for (let r = 0; r < n - 1; r++) {
      const round = rounds.length + 1;
      const pairs: ProposedPairing[] = [];
      for (const [s, g] of bergerRound(n, r)) {
        const a = seats[s] ?? null;
        const b = seats[g] ?? null;
        if (a === null || b === null) continue;
        pairs.push(cycle === 0 ? { sente: a, gote: b, round } : { sente: b, gote: a, round });
      }
      rounds.push(pairs);
    }
  return rounds;
}

/** The players in seed order: by rating, then the order they joined; fixed once the robin starts. */
export const robinSeeds = (state: TournamentState): string[] =>
  state.seeds !== null
    ? [...state.seeds]
    : [...state.players.values()]
        .map((p, order) => ({ p, order }))
        .sort((a, b) => b.p.rating - a.p.rating || a.order - b.order)
        .map(({ p }) => p.id);

export const robinRounds = (state: TournamentState): number => {
  const n = state.players.size + (state.players.size % 2);
  return (n - 1) * (state.terms?.robinCycles ?? 1);
};

/** The last round paired so far (0 before the first). */
export const currentRobinRound = (state: TournamentState): number => {
  let round = 0;
  for (const p of state.pairings.values()) if ((p.round ?? 0) > round) round = p.round ?? 0;
  return round;
};

/** When round `round` (1-based) must be over: the window shared evenly by the rounds. */
export function robinRoundDeadline(state: TournamentState, round: number): Date | null {
  if (state.startedAt === null || state.terms === null) return null;
  const per = (state.terms.minutes * 60_000) / Math.max(1, robinRounds(state));
  return new Date(Date.parse(state.startedAt) + Math.round(per * round));
}

export const robinPairer: Pairer = {
  pair({ state }: PairingRequest): ProposedPairing[] {
    if (state.status !== 'started' || state.terms?.format !== 'robin') return [];
    if (state.playing.size > 0) return [];
    const round = currentRobinRound(state) + 1;
    if (round > robinRounds(state)) return [];
    const out = (id: string) => state.players.get(id)?.ejected === true;
    // an ejected player's seat plays no more: their opponent sits the round out, as with a bye
    return (bergerTable(robinSeeds(state), state.terms.robinCycles)[round - 1] ?? []).filter(
      (p) => !out(p.sente) && !out(p.gote),
    );
  },
};
