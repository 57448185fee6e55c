/**
 * Floodgate's pairing of a round, after shogi-server's LeastDiff: of the possible pairings of
 * the waiting players the cheapest is kept, a pair costing
 * - the difference of its ratings;
 * - REPEAT_PENALTY when the two played each other last in this game name, and
 *   UNRATED_REPEAT_PENALTY more when one of them is unrated (a guest here: such players
 *   should meet various opponents, their rating says little);
 * - HUMAN_PENALTY when both are humans, by their names (`…_human`, `…_human@…`): people come
 *   to Floodgate to play engines;
 * - KIN_PENALTY when their names begin alike (the first 7 characters; the first 4 cost
 *   NEAR_KIN_PENALTY): likely one owner's engines, whose games teach little.
 * Up to EXHAUSTIVE_UP_TO players every pairing is tried; beyond, the rating order and TRIES
 * random ones. With an odd number waiting, the one whose absence makes the cheapest round
 * waits for the next. Pure: the randomness is given.
 */

/** A repeat of the last opponent costs as much as 400 rating points. */
export const REPEAT_PENALTY = 400;
/** ...and this much more with an unrated player in it. */
export const UNRATED_REPEAT_PENALTY = 4000;
/** Two humans. */
export const HUMAN_PENALTY = 800;
/** Names whose first 7 characters are the same. */
export const KIN_PENALTY = 800;
/** Names whose first 4 characters are the same (and not the first 7). */
export const NEAR_KIN_PENALTY = 400;
/** Rounds of at most this many players try every pairing. */
export const EXHAUSTIVE_UP_TO = 10;
/** Random pairings tried in a larger round. */
export const TRIES = 300;

export interface RoundPlayer {
  readonly playerId: string;
  readonly rating: number;
  /** the login name: it marks humans, and one owner's engines */
  readonly name: string;
  /** logged in with a trip (an account): rated; false for a guest */
  readonly trip: boolean;
}

export interface Round<P extends RoundPlayer> {
  readonly pairs: readonly (readonly [P, P])[];
  /** the one left for the next round (an odd number waited), or null */
  readonly waiting: P | null;
}

/** shogi-server's mark of a human player: a name ending `_human`, or with `_human@` in it. */
export const isHuman = (name: string): boolean => /_human$|_human@/.test(name);

/** What one pair adds to a round's cost. */
export function pairCost(a: RoundPlayer, b: RoundPlayer, lastOpponent: ReadonlyMap<string, string>): number {
  let cost = Math.abs(a.rating - b.rating);
  if (lastOpponent.get(a.playerId) === b.playerId || lastOpponent.get(b.playerId) === a.playerId)
    cost += REPEAT_PENALTY + (a.trip && b.trip ? 0 : UNRATED_REPEAT_PENALTY);
  if (isHuman(a.name) && isHuman(b.name)) cost += HUMAN_PENALTY;
  if (a.name.slice(0, 7) === b.name.slice(0, 7)) cost += KIN_PENALTY;
  else if (a.name.slice(0, 4) === b.name.slice(0, 4)) cost += NEAR_KIN_PENALTY;
  return cost;
}

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

/** Every round of the players, as orders for roundOf: each pairing once, each one left out in turn when odd. */
function* everyOrder<P>(players: readonly P[]): Generator<P[]> {
  if (players.length % 2 === 1) {
    for (let out = 0; out < players.length; out++)
      for (const order of everyOrder([...players.slice(0, out), ...players.slice(out + 1)]))
        yield [...order, players[out] as P];
    return;
  }
  if (players.length === 0) {
    yield [];
    return;
  }
  const [first, ...rest] = players as [P, ...P[]];
  for (let i = 0; i < rest.length; i++)
    for (const order of everyOrder([...rest.slice(0, i), ...rest.slice(i + 1)])) yield [first, rest[i] as P, ...order];
}

/**
 * The round of the waiting `players` (one entry a player): the cheapest pairing. `lastOpponent`:
 * each player's opponent in its last game of this game name.
 */
export function pairRound<P extends RoundPlayer>(
  players: readonly P[],
  lastOpponent: ReadonlyMap<string, string>,
  random: () => number,
): Round<P> {
  const cost = (round: Round<P>) => round.pairs.reduce((sum, [a, b]) => sum + pairCost(a, b, lastOpponent), 0);
  const byRating = [...players].sort((a, b) => b.rating - a.rating);
  const candidates: Iterable<P[]> =
    players.length <= EXHAUSTIVE_UP_TO
      ? everyOrder(byRating)
      : [byRating, ...Array.from({ length: TRIES }, () => shuffled(players, random))];
  let best: Round<P> | null = null;
  let bestCost = Number.POSITIVE_INFINITY;
  for (const order of candidates) {
    const round = roundOf(order);
    const c = cost(round);
    if (c < bestCost) {
      best = round;
      bestCost = c;
    }
  }
  return best ?? { pairs: [], waiting: null };
}
