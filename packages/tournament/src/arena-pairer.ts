/// <reference path="./edmonds-blossom-fixed.d.ts" />
/**
 * The arena's pairing waves, as lila and lishogi make them (`WaitingUsers.scala`,
 * `TournamentApi.makePairings`, `arena/PairingSystem.scala`, `arena/AntmaPairing.scala`):
 * - a wave is due when the tournament has had no pairing yet, when more than 100 wait, when at
 *   least two have waited `waitSeconds(clock)`, or, in a tournament of fewer than 30 players,
 *   when the active players are at most 1.5 times those waiting;
 * - the even number of those waiting is paired (the latest comer sits out when they are odd),
 *   all of them when that pairs nobody;
 * - in its first 15 seconds the tournament pairs neighbours by rank; after, a maximum-weight
 *   matching (the `edmonds-blossom-fixed` library) at the least total cost, where a pair costs
 *   its rank distance × a rank factor (2000 at the top down to 300: leaders meet leaders) plus
 *   its rating distance, and a player never meets the opponent they just played (unless only
 *   two players are active); above 100 waiting, the best 2 groups of at most 100 by rank;
 * - no pairing in the last max(30, min(main time / 2, 120)) seconds.
 */

import { estimatedSeconds } from '@shogi/ratings';
import blossom from 'edmonds-blossom-fixed';
import type { Pairer, PairingRequest, ProposedPairing } from './pairer.js';
import { ranksOf, standingsOf } from './standings.js';
import { type PlayerEntry, type TournamentState, waitingPlayers } from './state.js';
import { finishesAt, type TournamentClock } from './terms.js';

export const ARENA_RULES = {
  /** lila `WaitingUsers.haveWaitedEnough`: this many waiting make a wave at once. */
  manyWaiting: 100,
  /** lila `TournamentApi.makePairings`: at least this many have waited long enough. */
  waitedEnoughCount: 2,
  /** lila `StartedOrganizer`: a tournament this small pairs when most of its active players wait. */
  smallTournament: 30,
  smallTournamentRatio: 1.5,
  /** lila `Tournament.isRecentlyStarted`: pairing by neighbouring rank for this long. */
  recentlyStartedSeconds: 15,
  /** lila `PairingSystem.maxGroupSize`. */
  maxGroupSize: 100,
  /** lila `PairingSystem.rankFactorFor`: the factor's range. */
  rankFactor: { bottom: 300, top: 2000 },
} as const;

/** lishogi `WaitingUsers.waitSeconds` (from the clock's estimated seconds per player). */
export function waitSeconds(clock: TournamentClock): number {
  const total = estimatedSeconds(clock) ?? 0;
  if (total < 30) return 9;
  if (total < 60) return 11;
  return Math.min(50, Math.max(15, Math.floor(total / 10) + 6));
}

/** lila `Tournament.pairingsClosed`: seconds before the end when pairing stops. */
export const pairingsClosedSeconds = (clock: TournamentClock): number =>
  Math.max(30, Math.min(Math.floor(clock.mainSeconds / 2), 120));

export function pairingsClosed(state: TournamentState, now: Date): boolean {
  if (state.terms === null) return true;
  const left = (finishesAt(state.terms).getTime() - now.getTime()) / 1000;
  return left < pairingsClosedSeconds(state.terms.clock);
}

export interface Ranked {
  readonly player: PlayerEntry;
  readonly rank: number;
}

/** lila `PairingSystem.rankFactorFor`. */
const rankFactor = (maxRank: number, a: Ranked, b: Ranked): number => {
  const { bottom, top } = ARENA_RULES.rankFactor;
  return bottom + Math.floor(((top - bottom) * (maxRank - Math.min(a.rank, b.rank))) / maxRank);
};

export function waveIsDue(state: TournamentState, waiting: readonly PlayerEntry[], now: Date): boolean {
  if (waiting.length < 2 || state.terms === null) return false;
  if (state.pairings.size === 0 || waiting.length > ARENA_RULES.manyWaiting) return true;
  const since = now.getTime() - waitSeconds(state.terms.clock) * 1000;
  if (waiting.filter((p) => Date.parse(p.waitingSince) < since).length >= ARENA_RULES.waitedEnoughCount) return true;
  if (state.players.size < ARENA_RULES.smallTournament) {
    const active = [...state.players.values()].filter((p) => !p.paused).length;
    return active <= waiting.length * ARENA_RULES.smallTournamentRatio;
  }
  return false;
}

/** Colours: the one who has had sente less often takes it; on a tie, the better ranked. */
function colours(state: TournamentState, a: Ranked, b: Ranked): ProposedPairing {
  const balance = (p: PlayerEntry) => {
    let n = 0;
    for (const id of p.gameIds) {
      const g = state.pairings.get(id);
      if (g !== undefined) n += g.sente === p.id ? 1 : -1;
    }
    return n;
  };
  const [first, second] = balance(b.player) < balance(a.player) ? [b, a] : [a, b];
  return { sente: first.player.id, gote: second.player.id };
}

function justPlayed(state: TournamentState, a: string, b: string): boolean {
  return state.lastOpponent.get(a) === b || state.lastOpponent.get(b) === a;
}

/**
 * The graph `bestPairings` hands the matching library: one edge `[i, j, weight]` per pair allowed,
 * weighted so that among the matchings of most pairs the heaviest has the least total cost.
 */
export function pairingGraph(
  state: TournamentState,
  players: readonly Ranked[],
  onlyTwoActive: boolean,
): [number, number, number][] {
  let maxRank = 0;
  for (const p of players) if (p.rank > maxRank) maxRank = p.rank;
  const costs: [number, number, number][] = [];
  let maxCost = 0;
  for (let i = 0; i < players.length; i++)
    for (let j = i + 1; j < players.length; j++) {
      const a = players[i] as Ranked;
      const b = players[j] as Ranked;
      if (!onlyTwoActive && justPlayed(state, a.player.id, b.player.id)) continue;
      const cost = onlyTwoActive
        ? 1
        : Math.abs(a.rank - b.rank) * rankFactor(maxRank, a, b) + Math.abs(a.player.rating - b.player.rating);
      costs.push([i, j, cost]);
      if (cost > maxCost) maxCost = cost;
    }
  for (const edge of costs) edge[2] = maxCost + 1 - edge[2];
  return costs;
}

/** The cheapest full matching of `players` (ranked best first) as lila's AntmaPairing weighs it. */
export function bestPairings(
  state: TournamentState,
  players: readonly Ranked[],
  onlyTwoActive: boolean,
): ProposedPairing[] {
  if (players.length < 2) return [];
  const edges = pairingGraph(state, players, onlyTwoActive);
  if (edges.length === 0) return [];
  const mate = blossom(edges, true);
  const out: ProposedPairing[] = [];
  for (let i = 0; i < mate.length; i++) {
    const j = mate[i] as number;
    if (j > i) out.push(colours(state, players[i] as Ranked, players[j] as Ranked));
  }
  return out;
}

function proximityPairings(state: TournamentState, players: readonly Ranked[]): ProposedPairing[] {
  const out: ProposedPairing[] = [];
  for (let i = 0; i + 1 < players.length; i += 2)
    out.push(colours(state, players[i] as Ranked, players[i + 1] as Ranked));
  return out;
}

function makePairings(state: TournamentState, idles: readonly Ranked[], now: Date, onlyTwoActive: boolean) {
  if (idles.length < 2) return [];
  const startedAt = state.startedAt === null ? now.getTime() : Date.parse(state.startedAt);
  if (now.getTime() - startedAt < ARENA_RULES.recentlyStartedSeconds * 1000) return proximityPairings(state, idles);
  if (idles.length > ARENA_RULES.maxGroupSize) {
    const size = Math.min(Math.floor(idles.length / 4) * 2, ARENA_RULES.maxGroupSize);
    return [
      ...bestPairings(state, idles.slice(0, size), onlyTwoActive),
      ...bestPairings(state, idles.slice(size, 2 * size), onlyTwoActive),
    ];
  }
  return bestPairings(state, idles, onlyTwoActive);
}

export const arenaPairer: Pairer = {
  pair({ state, now, present }: PairingRequest): ProposedPairing[] {
    if (state.status !== 'started' || state.terms?.format !== 'arena' || pairingsClosed(state, now)) return [];
    const waiting = waitingPlayers(state).filter((p) => present === undefined || present.has(p.id));
    if (!waveIsDue(state, waiting, now)) return [];
    const ranks = ranksOf(standingsOf(state));
    const ranked = (ps: readonly PlayerEntry[]) =>
      ps.map((player) => ({ player, rank: ranks.get(player.id) ?? ranks.size + 1 })).sort((a, b) => a.rank - b.rank);
    const active = [...state.players.values()].filter((p) => !p.paused).length;
    const onlyTwoActive = state.players.size < ARENA_RULES.smallTournament && active === 2;
    // lila `evenOrAll`: the latest comer sits out an odd wave, unless that leaves no pair
    let even = waiting;
    if (waiting.length % 2 === 1) {
      const latest = waiting.reduce((l, p) => (Date.parse(p.waitingSince) > Date.parse(l.waitingSince) ? p : l));
      even = waiting.filter((p) => p !== latest);
    }
    const pairs = makePairings(state, ranked(even), now, onlyTwoActive);
    return pairs.length > 0 || even.length === waiting.length
      ? pairs
      : makePairings(state, ranked(waiting), now, onlyTwoActive);
  },
};
