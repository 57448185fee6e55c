/**
 * Floodgate's pairing of a round, after shogi-server's: many random pairings of the waiting
 * players are tried and the cheapest kept. A pair costs the difference of its ratings, and
 * REPEAT_PENALTY more when the two played each other last in this game name, so players
 * meet opponents of their strength without meeting the same one round after round. With an
 * odd number waiting, one is left out for the next round. Pure: the randomness is given.
 */

/** What a pair's cost adds when its players met in their last game: as much as 400 rating points. */
export const REPEAT_PENALTY = 400;
/** Random pairings tried a round. */
export const TRIES = 300;

export interface RoundPlayer {
  readonly playerId: string;
  readonly rating: number;
}

export interface Round<P extends RoundPlayer> {
  readonly pairs: readonly (readonly [P, P])[];
  /** the one left for the next round (an odd number waited), or null */
  readonly waiting: P | null;
}

const pairCost = (a: RoundPlayer, b: RoundPlayer, lastOpponent: ReadonlyMap<string, string>): number =>
  Math.abs(a.rating - b.rating) +
  (lastOpponent.get(a.playerId) === b.playerId || lastOpponent.get(b.playerId) === a.playerId ? REPEAT_PENALTY : 0);

/** The players in order, paired first with second, third with fourth...; the last one left out when odd. */
function roundOf<P extends RoundPlayer>(order: readonly P[]): Round<P> {
  const pairs: [P, P][] = [];
  for (let i = 0; i + 1 < order.length; i += 2) pairs.push([order[i] as P, order[i + 1] as P]);
  return { pairs, waiting: order.length % 2 === 1 ? (order[order.length - 1] as P) : null };
}

function shuffled<P>(items: readonly P[], random: () => number): P[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as P, out[i] as P];
  }
  return out;
}

/**
 * The round of the waiting `players` (one entry a player): the cheapest of the pairing by
 * rating order and TRIES random ones. `lastOpponent`: each player's opponent in its last game
 * of this game name.
 */
export function pairRound<P extends RoundPlayer>(
  players: readonly P[],
  lastOpponent: ReadonlyMap<string, string>,
  random: () => number,
): Round<P> {
  const cost = (round: Round<P>) => round.pairs.reduce((sum, [a, b]) => sum + pairCost(a, b, lastOpponent), 0);
  let best = roundOf([...players].sort((a, b) => b.rating - a.rating));
  let bestCost = cost(best);
  for (let i = 0; i < TRIES && players.length > 2; i++) {
    const round = roundOf(shuffled(players, random));
    const c = cost(round);
    if (c < bestCost) {
      best = round;
      bestCost = c;
    }
  }
  return best;
}
