// One pairing wave of a large arena: the arena pairer's whole time beside the matching library
// alone on the same graphs (the groups of at most 100 by rank the wave hands it).

import {
  ARENA_RULES,
  PAIRERS,
  pairingGraph,
  type Ranked,
  ranksOf,
  standingsOf,
  waitingPlayers,
} from '@shogi/tournament';
import blossom from 'edmonds-blossom-fixed';
import { generateArena } from './arena.js';

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** The groups the pairer matches, built as it builds them (a wave past its first 15 seconds). */
function waveGroups(state: Parameters<typeof standingsOf>[0]): Ranked[][] {
  const ranks = ranksOf(standingsOf(state));
  const waiting = waitingPlayers(state);
  let even = waiting;
  if (waiting.length % 2 === 1) {
    const latest = waiting.reduce((l, p) => (Date.parse(p.waitingSince) > Date.parse(l.waitingSince) ? p : l));
    even = waiting.filter((p) => p !== latest);
  }
  const idles = even.map((player) => ({ player, rank: ranks.get(player.id) ?? 0 })).sort((a, b) => a.rank - b.rank);
  if (idles.length <= ARENA_RULES.maxGroupSize) return [idles];
  const size = Math.min(Math.floor(idles.length / 4) * 2, ARENA_RULES.maxGroupSize);
  return [idles.slice(0, size), idles.slice(size, 2 * size)];
}

export function benchWave(players: number, runs: number): void {
  let start = performance.now();
  const { state, now } = generateArena({ players, waves: 4, overShare: 0.6 });
  console.log(
    `arena of ${players}: ${waitingPlayers(state).length} waiting, ${state.playing.size} playing, ` +
      `${state.pairings.size} games (generated in ${((performance.now() - start) / 1000).toFixed(1)} s)`,
  );
  const graphs = waveGroups(state).map((g) => pairingGraph(state, g, false));
  const library: number[] = [];
  const pairer: number[] = [];
  let pairs = 0;
  for (let r = 0; r < runs; r++) {
    start = performance.now();
    for (const edges of graphs) blossom(edges, true);
    library.push(performance.now() - start);
    start = performance.now();
    pairs = PAIRERS.arena.pair({ state, now }).length;
    pairer.push(performance.now() - start);
  }
  const lib = median(library);
  const all = median(pairer);
  console.log(
    `  matching library alone (reference): ${lib.toFixed(1)} ms  (${graphs.map((g) => `${g.length} edges`).join(', ')})`,
  );
  console.log(
    `  arena pairer, whole wave:           ${all.toFixed(1)} ms  (${pairs} pairs; ${(all / lib).toFixed(2)}x the library; target at most 2x)`,
  );
  console.log(
    `  medians of ${runs} runs; first runs: library ${library[0]?.toFixed(0)} ms, pairer ${pairer[0]?.toFixed(0)} ms`,
  );
}
