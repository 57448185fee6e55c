// The matching computer that repairs its last solution after weight changes, against the
// plain blossom algorithm solving each graph afresh: the same total weight every time.
import { describe, expect, it } from 'vitest';
import { MatchingComputer, maxWeightMatching } from '../src/index.js';

function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function freshWeight(n: number, weights: bigint[][], fixed: Map<number, number>): bigint {
  const ends: number[] = [];
  const ws: bigint[] = [];
  const free = [...Array(n).keys()].filter((v) => !fixed.has(v));
  for (let a = 0; a < free.length; a++) {
    for (let b = 0; b < a; b++) {
      const w = weights[free[a]!]![free[b]!]!;
      if (w > 0n) {
        ends.push(a, b);
        ws.push(w);
      }
    }
  }
  const mate = maxWeightMatching(free.length, { ends: Int32Array.from(ends), weights: ws });
  let total = 0n;
  mate.forEach((m, v) => {
    if (m > v) total += weights[free[v]!]![free[m]!]!;
  });
  return total;
}

function weightOf(mate: number[], weights: bigint[][], fixed: Map<number, number>): bigint {
  let total = 0n;
  mate.forEach((m, v) => {
    if (m > v && !fixed.has(v)) total += weights[v]![m]!;
  });
  return total;
}

describe('MatchingComputer', () => {
  it.each(Array.from({ length: 24 }, (_, i) => i + 1))(
    'after every change, a maximum-weight matching (seed %i)',
    (seed) => {
      const rnd = random(seed);
      const n = 8 + Math.floor(rnd() * 20);
      const weights = Array.from({ length: n }, () => new Array<bigint>(n).fill(0n));
      const mc = new MatchingComputer(n);
      const fixed = new Map<number, number>();
      const set = (a: number, b: number, w: bigint): void => {
        weights[a]![b] = w;
        weights[b]![a] = w;
        mc.setEdgeWeight(a, b, w);
      };
      // Big weights with ties, as the Dutch system's packed criteria make them.
      const draw = (): bigint =>
        rnd() < 0.3 ? 0n : (BigInt(Math.floor(rnd() * 4)) << 90n) + BigInt(Math.floor(rnd() * 8));
      for (let a = 0; a < n; a++) for (let b = 0; b < a; b++) set(a, b, draw());
      for (let step = 0; step < 40; step++) {
        const mate = mc.computeMatching();
        expect(weightOf(mate, weights, fixed)).toBe(freshWeight(n, weights, fixed));
        for (const [a, b] of fixed) expect(mate[a]).toBe(b);
        const free = [...Array(n).keys()].filter((v) => !fixed.has(v));
        if (free.length < 4) break;
        const v = free[Math.floor(rnd() * free.length)]!;
        if (rnd() < 0.1 && mate[v] !== v && !fixed.has(mate[v]!)) {
          const u = mate[v]!;
          for (let x = 0; x < n; x++) {
            if (x !== v) weights[v]![x] = weights[x]![v] = 0n;
            if (x !== u) weights[u]![x] = weights[x]![u] = 0n;
          }
          fixed.set(v, u).set(u, v);
          mc.fixPair(v, u);
          continue;
        }
        for (const u of free) if (u !== v && rnd() < 0.5) set(v, u, draw());
      }
    },
  );
});
